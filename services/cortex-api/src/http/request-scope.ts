import type { IncomingMessage } from 'node:http';
import { databaseHeader } from '@rhizome/contracts/api/databases';
import type { DatabaseHandle, Platform, PlatformModule, ServiceOf } from '@rhizome/core/platform';

/** The database a request names in its header (the CLI's `-d/--database`), if it names one. */
export function requestedDatabase(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  const value = req.headers[databaseHeader];
  const name = (Array.isArray(value) ? value[0] : value)?.trim();
  return name || undefined;
}

/**
 * What one request works on: the database its header names, else the active one, resolved once (a switch
 * in the middle of a request does not split it across two databases), and each feature's service for it,
 * built on first use.
 */
export class RequestScope {
  private handle?: Promise<DatabaseHandle>;
  private readonly services = new Map<PlatformModule, Promise<unknown>>();

  constructor(
    readonly platform: Platform,
    private readonly requested?: string,
  ) {}

  /** The database's name without opening it; an unknown requested name is refused when the database is opened. */
  databaseName(): string {
    return this.requested ?? this.platform.databases.currentName();
  }

  database(): Promise<DatabaseHandle> {
    return (this.handle ??= this.open());
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

  private async open(): Promise<DatabaseHandle> {
    const { databases } = this.platform;
    if (!this.requested) return databases.current();
    // A name that is not a database is a 404, never a new empty database made by reading it.
    const { name } = databases.info(this.requested);
    return { name, db: await databases.connection(name) };
  }
}
