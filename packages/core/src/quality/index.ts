export { corpusGrade } from './read-model/scores.ts';
export { qualityModule } from './module.ts';
export { qualityServiceFor } from './service.ts';
