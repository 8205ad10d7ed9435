export { clearAttempts, releaseAttempt, reserveAttempt, type ThrottleRule } from './repo';
export { authRoutes } from './routes';
export { accountKey } from './throttle';
