export { videoTaskJobs } from './jobs';
export { videoTaskRoutes } from './routes';
