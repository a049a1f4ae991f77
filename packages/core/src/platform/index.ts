export { createPlatform, type Platform } from './create.ts';
export type { BackgroundJob, DatabaseHandle, FeatureModule, ServiceOf, TaskRegistrar } from './module.ts';
export { registerTaskHandlers, startBackgroundJobs } from './background.ts';
export { featureModules } from './modules.ts';
