export { invalidPackage } from './errors.ts';
export { buildCcxPackage } from './export-service.ts';
export { exportFile } from './files.ts';
export { queueCcxImport, validateCcxPackage } from './import-service.ts';
export { exportBySourcesOperation, exportGraphOperation } from './operation-names.ts';
export { defineCcxOperations } from './tasks.ts';
export { defaultZipLimits } from './zip-reader.ts';
