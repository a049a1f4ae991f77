export { createPlatform, type Platform } from './create.ts';
export type { DatabaseHandle, ServiceOf } from '../module/index.ts';
export { registerTaskHandlers, startBackgroundJobs } from './background.ts';
// Outside core a feature module is always one the platform hosts.
export { featureModules, type PlatformModule } from './modules.ts';
