export { ProcessingControls } from './controls.ts';
export { HealthMonitor } from './health-monitor.ts';
