import { domainRegistryFor, type DomainDefinition } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';

/** Where the definitions to export come from, and the drop-in files that count as custom too. */
export interface DomainSource {
  /** `names` null: every custom domain; else only the custom ones among those names. */
  definitions(db: Db, names: ReadonlySet<string> | null): Promise<DomainDefinition[]>;
}

export function customDomainSource(dataDir: string): DomainSource {
  return {
    async definitions(db, names) {
      return (await domainRegistryFor(db, dataDir)).userDomains(names ?? undefined);
    },
  };
}

export interface DomainImportCounts {
  domains_imported: number;
  domains_skipped: number;
}

/**
 * Adds the package's domains to the database inside the import's transaction. A name the database
 * already knows keeps its own definition: built-in names are never overwritten, and a different
 * definition under a known name is reported in the warnings, as is a definition that does not validate.
 */
export async function importDomains(
  trx: Db,
  definitions: unknown[],
  dataDir: string | undefined,
  warn: (message: string) => void,
): Promise<DomainImportCounts> {
  const counts: DomainImportCounts = { domains_imported: 0, domains_skipped: 0 };
  if (!definitions.length) return counts;
  for (const definition of definitions) {
    // Read again for each one, so a name the package repeats meets the domain just added.
    const adopted = await (await domainRegistryFor(trx, dataDir)).adopt(definition);
    if (adopted.outcome === 'added') counts.domains_imported += 1;
    else counts.domains_skipped += 1;
    if (adopted.outcome === 'kept') warn(`Domain '${adopted.name}' not imported: ${adopted.reason}`);
    if (adopted.outcome === 'refused')
      warn(`Domain '${adopted.name}' not imported, it is not valid: ${adopted.reason}`);
  }
  return counts;
}
