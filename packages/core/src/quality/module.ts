import type { FeatureModule } from '../platform/index.ts';
import { QualityService } from './service.ts';

/** Quality: scores of each committed source's graph, cached per source, and summaries over the corpus. */
export const qualityModule: FeatureModule<QualityService> = {
  name: 'quality',
  tables: ['source_quality_scores'],
  service: (platform, { db }) => new QualityService({ db, settings: () => platform.settings.get() }),
};
