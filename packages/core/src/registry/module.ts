import type { FeatureModule } from '../module/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import { RegistryService } from './service.ts';

/** What the registry module needs of the process it runs in. */
export interface RegistryHost {
  settings: Pick<SettingsStore, 'get' | 'patch'>;
  configDir: string;
  announceSettingsChanged: () => Promise<void>;
}

/** One per process: it remembers the polling intervals of the device codes it handed out. */
const services = new WeakMap<RegistryHost, RegistryService>();

/** The remote package registry: credentials in `auth.json` of the configuration directory, no tables. */
export const registryModule: FeatureModule<RegistryService, RegistryHost> = {
  name: 'registry',
  tables: [],
  service(host) {
    let service = services.get(host);
    if (!service) {
      service = new RegistryService({
        settings: () => host.settings.get(),
        configDir: host.configDir,
        clearSettingsCredentials: async () => {
          host.settings.patch({ registry: { token: null, credentials: null } });
          await host.announceSettingsChanged();
        },
      });
      services.set(host, service);
    }
    return service;
  },
};
