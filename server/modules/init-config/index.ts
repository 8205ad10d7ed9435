export { initConfigRoutes } from './routes';
