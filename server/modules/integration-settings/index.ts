export { integrationSettingRoutes } from './routes';
