import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { featureModules } from '@rhizome/core/platform';
import { tableAccesses } from './table-access.ts';

const root = path.resolve(import.meta.dirname, '../..');
const core = path.join(root, 'packages/core/src');

/** Each table's owning module, from the modules' own `tables` lists. */
const owners = new Map(featureModules.flatMap((module) => module.tables.map((table) => [table, module.name] as const)));
const tables = new Set(owners.keys());

/** Reads of another feature's tables are declared: a file named read-model.ts, or one in a read-model/ folder. */
const isReadModel = (file: string) => /(^|\/)read-model(\.ts$|\/)/.test(file);

/**
 * Accesses to tables another module owns that are still to be moved behind the owner's face
 * (docs/architecture.md, "Known debts"). The list must shrink as they are paid: an entry that no longer
 * occurs fails the test as surely as a new access does.
 */
const knownDebts = [
  'ccx/import-apply.ts writes sources',
  'ccx/import-apply.ts writes document_chunks',
  'ccx/import-apply.ts writes source_tag_links',
  'ccx/import-apply.ts reads source_tags',
  'ccx/import-apply.ts writes source_tags',
  'ccx/import-apply.ts writes source_citations',
  'ccx/import-apply.ts writes relationship_citations',
  'ccx/workflows.ts reads triggers',
  'ccx/workflows.ts writes triggers',
  'ccx/workflows.ts writes workflows',
  'extraction/agent/service.ts reads sources',
  'extraction/service.ts reads node_sources',
  'extraction/service.ts reads edge_sources',
  'graph/nodes/merge.ts writes source_citations',
  'graph/nodes/merge.ts writes relationship_citations',
  'graph/nodes/repo.ts reads source_citations',
];

/** Every access of a core feature's file to a table another module owns, outside what the rules allow. */
async function foreignAccesses(): Promise<string[]> {
  const found = new Set<string>();
  for (const file of (await readdir(core, { recursive: true })).sort()) {
    const folder = file.split(path.sep)[0];
    // Storage's migrations create and convert every table; they belong to no feature.
    if (!file.endsWith('.ts') || folder === 'storage') continue;
    const text = await readFile(path.join(core, file), 'utf8');
    for (const access of tableAccesses(file, text, tables)) {
      if (owners.get(access.table) === folder || (access.kind === 'read' && isReadModel(file))) continue;
      found.add(`${file} ${access.kind}s ${access.table}`);
    }
  }
  return [...found];
}

describe('table ownership', () => {
  it('every owning module is a folder of core, so a file is matched to its feature by its folder', async () => {
    const folders = new Set(await readdir(core));
    const owning = featureModules.filter((module) => module.tables.length).map((module) => module.name);
    expect(owning.filter((name) => !folders.has(name))).toEqual([]);
  });

  it("only a table's module writes it, and other features read it only in a read model", async () => {
    expect((await foreignAccesses()).sort()).toEqual([...knownDebts].sort());
  });

  it('is able to fail: knex and SQL writes and reads of graph tables are seen', async () => {
    const file = path.join(root, 'tests/architecture/fixtures/writes-foreign-tables.ts');
    const accesses = tableAccesses(file, await readFile(file, 'utf8'), tables);
    expect(accesses.map((access) => `${access.kind} ${access.table}`).sort()).toEqual([
      'read graph_edges',
      'read graph_nodes',
      'read graph_templates',
      'write node_sources',
      'write template_sources',
    ]);
  });
});
