export { articleRoutes } from './routes';
