export { checkUpload, claimUpload } from './check-upload';
export { newUploadKey } from './grant';
export { uploadJobs } from './jobs';
export { insertUpload } from './repo';
export { uploadRoutes } from './routes';
