export { CountsRegistry, countRows, type CountProbe } from './counts.ts';
export { buildDiagnosticsZip, systemInfo } from './diagnostics.ts';
export { diskHealth } from './disk.ts';
export { HealthRegistry, type HealthProbe, type SubsystemHealth } from './health.ts';
export { readAllLogs, readServiceLog } from './logs.ts';
export { PluginCaches } from './plugin-caches.ts';
export { getServiceStatus, type ServiceStatus } from './supervisor.ts';
export { vectorIndexHealth } from './vector-index-health.ts';
