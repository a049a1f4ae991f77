export { RegistryService } from './service.ts';
