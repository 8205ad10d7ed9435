export { insertTransfer, numberTransfer } from './repo';
export { moneyRoutes } from './routes';
