export { cardRoutes } from './routes';
