export { dhCallbackRoutes } from './callback';
export { makeConsentClip, makeContinuousTake, makeVoiceSample } from './clone-media';
export { digitalHumanJobs } from './jobs';
export { IMAGE_CLONE_COST, addImageClone } from './image-clones';
export { cloneRoutes } from './routes-clones';
export { dhTemplateRoutes } from './routes-templates';
export { dhVideoRoutes } from './routes-videos';
export { VOICE_CLONE_COST, addVoiceClone } from './voice-clones';
export { unitCost as digitalManUnitCost } from './videos';
