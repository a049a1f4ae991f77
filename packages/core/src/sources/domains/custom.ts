import type { Db } from '../../storage/index.ts';
import { DomainRegistry } from './registry.ts';
import type { DomainDefinition } from './schema.ts';

/** The built-in domains plus the custom ones stored in this database. */
export async function domainRegistryFor(db: Db): Promise<DomainRegistry> {
  const rows = (await db('custom_domains').select('definition')) as { definition: string }[];
  return new DomainRegistry(rows.map((row) => JSON.parse(row.definition) as DomainDefinition));
}
