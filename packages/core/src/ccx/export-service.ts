import type { Settings } from '@rhizome/contracts/settings';
import type { DatabaseManager } from '../databases/index.ts';
import type { DataPaths } from '../paths.ts';
import type { EmbeddingService } from '../providers/index.ts';
import { configuredIdentity } from '../search/index.ts';
import type { Db } from '../storage/index.ts';
import { customDomainSource } from './domains.ts';
import { citedNodeIds, existingSourceIds, type ExportScope } from './read-model.ts';
import { workflowSource } from './workflows.ts';
import { writeCcxPackage, type ExportSwitches, type WrittenPackage } from './writer.ts';

export interface CcxExportOptions extends Partial<ExportSwitches> {
  /** Export only what these sources brought (POST /exports/by_sources). */
  source_ids?: string[];
  /** Defaults to the active database. */
  database?: string;
}

export interface CcxExportDeps {
  databases: DatabaseManager;
  paths: DataPaths;
  settings(): Settings;
  embeddings: EmbeddingService;
  version: string;
}

export const defaultSwitches: ExportSwitches = {
  include_templates: true,
  include_knowledge: true,
  include_workflows: true,
  include_sources: true,
  include_embeddings: false,
};

/** Writes the package of `database` to `target`; a by-sources export carries no workflows. */
export async function exportDatabase(
  deps: CcxExportDeps,
  database: string,
  db: Db,
  options: CcxExportOptions,
  target: string,
): Promise<WrittenPackage & { source_count: number | null }> {
  const switches: ExportSwitches = { ...defaultSwitches, ...definedSwitches(options) };
  const { identity } = await configuredIdentity(db, deps.embeddings, deps.settings());
  let scope: ExportScope = { sourceIds: null, nodeIds: null, vectors: switches.include_embeddings ? identity : null };
  if (options.source_ids) {
    const sourceIds = await existingSourceIds(db, options.source_ids);
    scope = { ...scope, sourceIds, nodeIds: await citedNodeIds(db, sourceIds) };
    Object.assign(switches, { include_knowledge: true, include_sources: true, include_workflows: false });
  }
  const settings = deps.settings().export;
  const written = await writeCcxPackage(
    db,
    scope,
    switches,
    {
      database,
      name: settings.export_package_name ?? `rhizome/${database}`,
      package_version: settings.export_version,
      license: settings.export_license,
      generatorVersion: deps.version,
      embedder: identity,
    },
    workflowSource,
    customDomainSource(deps.paths.root),
    target,
  );
  return { ...written, source_count: scope.sourceIds?.length ?? null };
}

function definedSwitches(options: CcxExportOptions): Partial<ExportSwitches> {
  return Object.fromEntries(
    Object.entries(options).filter(([key, value]) => key.startsWith('include_') && typeof value === 'boolean'),
  );
}
