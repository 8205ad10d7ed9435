export { menuRoutes } from './routes';
