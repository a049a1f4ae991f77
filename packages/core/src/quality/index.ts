export { cachedGrades, corpusGrade } from './cache.ts';
export { QualityService } from './service.ts';
