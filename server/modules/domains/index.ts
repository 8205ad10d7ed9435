export { domainRoutes } from './routes';
