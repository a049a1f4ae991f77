import type { DatabaseHandle, Platform, PlatformModule, ServiceOf } from '@rhizome/core/platform';

/**
 * What one request works on: the active database, resolved once (a switch in the middle of a request does
 * not split it across two databases), and each feature's service for it, built on first use.
 */
export class RequestScope {
  private handle?: Promise<DatabaseHandle>;
  private readonly services = new Map<PlatformModule, Promise<unknown>>();

  constructor(readonly platform: Platform) {}

  database(): Promise<DatabaseHandle> {
    return (this.handle ??= this.platform.databases.current());
  }

  /** The module's service for this request's database. */
  service<M extends PlatformModule>(module: M): Promise<ServiceOf<M>> {
    let service = this.services.get(module);
    if (!service) {
      const build = module.service;
      if (!build) throw new Error(`the ${module.name} module has no service`);
      service = this.database().then((database) => build.call(module, this.platform, database));
      this.services.set(module, service);
    }
    return service as Promise<ServiceOf<M>>;
  }
}
