export { ProcessingControls } from './controls.ts';
export { HealthMonitor } from './health-monitor.ts';
export { pauseModule } from './module.ts';
