export { registryModule } from './module.ts';
