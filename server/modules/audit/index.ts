export { writeAudit } from './repo';
