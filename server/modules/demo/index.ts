export { seedDemoClones } from './demo-clones';
export { seedDemoMedia } from './demo-media';
export { createFirstAdmin, hasAdmin, hasUsers, seedDemo } from './seed';
