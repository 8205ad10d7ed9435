export { notifyDhFinished, notifyVideoTaskStatus } from './events';
export { notificationRoutes } from './routes';
