import type { Logger } from '../logging.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { Providers } from './hub.ts';

/** What the providers module (its health probes and the instance-health job) needs of the process it runs in. */
export interface ProvidersHost {
  providers: Providers;
  settings: Pick<SettingsStore, 'get' | 'patch'>;
  announceSettingsChanged: () => Promise<void>;
  logger: Logger;
}
