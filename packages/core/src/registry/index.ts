export { registryModule } from './module.ts';
export type { RegistryService } from './service.ts';
