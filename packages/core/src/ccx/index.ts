export { ccxModule } from './module.ts';
export { exportFile } from './files.ts';
export { queueCcxImport, validateCcxPackage } from './import-service.ts';
export { exportGraphOperation } from './operation-names.ts';
