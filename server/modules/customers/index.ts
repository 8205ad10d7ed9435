export { customerRoutes } from './routes';
