export { aiTitleRoutes } from './routes';
