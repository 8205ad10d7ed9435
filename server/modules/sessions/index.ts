export {
  authenticate,
  createSession,
  endSessionByToken,
  endSessionsOfUser,
  setUserStatus,
} from './service';
