export { CountsRegistry } from './counts.ts';
export { buildDiagnosticsZip, systemInfo } from './diagnostics.ts';
export { HealthRegistry } from './health.ts';
export { healthChecks, overallStatus, type CheckItem, type CheckFigures } from './health-checks.ts';
export { readAllLogs, readServiceLog } from './logs.ts';
export { observabilityModule } from './module.ts';
export { PluginCaches } from './plugin-caches.ts';
export { sourceCount, sourceIds, sourceStamps, sourcesUpdatedSince } from './read-model.ts';
export { getServiceStatus, type ServiceStatus } from './supervisor.ts';
