import { automationModule } from '../automation/index.ts';
import { backupModule } from '../backup/index.ts';
import { ccxModule } from '../ccx/index.ts';
import { chatModule } from '../chat/index.ts';
import { databasesModule } from '../databases/index.ts';
import { extractionModule } from '../extraction/index.ts';
import { graphModule } from '../graph/index.ts';
import { observabilityModule } from '../observability/index.ts';
import { pauseModule } from '../pause/index.ts';
import { providersModule } from '../providers/index.ts';
import { qualityModule } from '../quality/index.ts';
import { registryModule } from '../registry/index.ts';
import { resetsModule } from '../resets/index.ts';
import { searchModule } from '../search/index.ts';
import { sourcesModule } from '../sources/index.ts';
import { tasksModule } from '../tasks/index.ts';
import type { FeatureModule } from '../module/index.ts';
import type { Platform } from './create.ts';

/** A feature module whose host the platform provides. */
export type PlatformModule<Service = unknown> = FeatureModule<Service, Platform>;

/**
 * Every feature of the platform. Each module declares the host it needs; this list only compiles while
 * `Platform` provides every one of them. `createPlatform`, the worker and the background jobs are folded from this
 * list: adding a feature is adding its module here. Order matters only for seeds (graph templates before
 * the automation that refers to them) and for background jobs, which start in this order and stop in reverse.
 */
export const featureModules: readonly PlatformModule[] = [
  databasesModule,
  tasksModule,
  pauseModule,
  observabilityModule,
  providersModule,
  graphModule,
  sourcesModule,
  extractionModule,
  searchModule,
  qualityModule,
  chatModule,
  automationModule,
  backupModule,
  ccxModule,
  resetsModule,
  registryModule,
];
