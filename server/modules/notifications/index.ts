export {
  notifyAccountAttention,
  notifyDhFinished,
  notifyPostTrouble,
  notifyVideoTaskStatus,
} from './events';
export { notificationRoutes } from './routes';
