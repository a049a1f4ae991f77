import type { FeatureModule, Platform } from '../platform/index.ts';
import { RegistryService } from './service.ts';

/** One per process: it remembers the polling intervals of the device codes it handed out. */
const services = new WeakMap<Platform, RegistryService>();

/** The remote package registry: credentials in `auth.json` of the configuration directory, no tables. */
export const registryModule: FeatureModule<RegistryService> = {
  name: 'registry',
  tables: [],
  service(platform) {
    let service = services.get(platform);
    if (!service) {
      service = new RegistryService({
        settings: () => platform.settings.get(),
        configDir: platform.configDir,
        clearSettingsCredentials: async () => {
          platform.settings.patch({ registry: { token: null, credentials: null } });
          await platform.announceSettingsChanged();
        },
      });
      services.set(platform, service);
    }
    return service;
  },
};
