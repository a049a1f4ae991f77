export { ProcessingControls } from './controls.ts';
export { pauseModule } from './module.ts';
