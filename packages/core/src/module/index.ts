export type { BackgroundJob, DatabaseHandle, FeatureModule, SeedHook, ServiceOf, TaskRegistrar } from './contract.ts';
export type { CountProbe, HealthCheck, HealthProbe, HealthReport, SubsystemHealth } from './probes.ts';
export { periodicJob } from './periodic.ts';
