export { aiToolRoutes } from './routes';
