export { rechargeJobs } from './jobs';
export { rechargeRoutes } from './routes';
