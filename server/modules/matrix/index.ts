export { matrixJobs } from './jobs';
export { matrixAccountRoutes } from './routes';
