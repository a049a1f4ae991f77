export { ccxModule } from './module.ts';
export { exportFile } from './files.ts';
export { queueCcxImport } from './import-service.ts';
export { validateCcxPackage } from './read-in-thread.ts';
export { exportGraphOperation } from './operation-names.ts';
