export { createPlatform, type Platform } from './create.ts';
export type { DatabaseHandle, ServiceOf } from '../module/index.ts';
export { registerTaskHandlers, startBackgroundJobs } from './background.ts';
export { clusterNodes, type ClusterNode } from './leadership/index.ts';
// Outside core a feature module is always one the platform hosts.
export { featureModules, type PlatformModule } from './modules.ts';
