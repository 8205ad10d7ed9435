export { checkUpload, claimUpload } from './check-upload';
export { checkImageUse, PLATFORM_IMAGE_OWNER } from './platform-images';
export { newUploadKey } from './grant';
export { uploadJobs } from './jobs';
export { insertUpload } from './repo';
export { uploadRoutes } from './routes';
