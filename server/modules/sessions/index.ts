export { authenticate, createSession, endSessionByToken, endSessionsOfUser } from './service';
