export { fileRoutes } from './routes';
