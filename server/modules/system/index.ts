export { holdsDemoData, markDemoData } from './demo-data';
export { findActiveDomain, readConfig, readConfigValue, setConfigValue } from './repo';
export { systemRoutes } from './routes';
export { ensurePlatformDefaults, getSystemInfo, normalizeHost } from './service';
export { priceFor, settingsFor } from './settings';
export { wantsNotification } from './user-config';
