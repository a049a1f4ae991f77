export { corpusGrade } from './cache.ts';
export { qualityModule } from './module.ts';
export { QualityService } from './service.ts';
