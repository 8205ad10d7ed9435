export { addResource } from './add-resource';
export { resourceJobs } from './jobs';
export { MAX_INT4 } from './repo';
export { resourceRoutes } from './routes';
export { signedUrlsOf } from './signed-url-cache';
export { addWork, deleteUnlessInLibrary } from './works';
export { ownResources } from './own-resources';
