export { aiToolRoutes } from './routes';
export { enabledTool } from './tools';
