import type { FeatureModule } from '../module/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import { qualityServiceFor, type QualityService } from './service.ts';

/** What the quality module needs of the process it runs in. */
export interface QualityHost {
  settings: Pick<SettingsStore, 'get'>;
}

/** Quality: scores of each committed source's graph, cached per source, and summaries over the corpus. */
export const qualityModule: FeatureModule<QualityService, QualityHost> = {
  name: 'quality',
  tables: ['source_quality_scores'],
  service: (host, { db }) => qualityServiceFor(db, () => host.settings.get()),
};
