export {
  countMerchantsOf,
  findUserById,
  findUserByMobile,
  findUserByUsername,
  insertUser,
  isMobileTaken,
  isUsernameTaken,
  updateUser,
} from './repo';
export { userRoutes } from './routes';
export { reachesUser, visibleUsers, type ScopeSubject } from './scope';
