import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { featureModules } from '@rhizome/core/platform';
import { queryCalls, tableAccesses } from './table-access.ts';

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
  'ccx/import-apply.ts reads node_tags',
  'ccx/import-apply.ts writes node_tags',
  'ccx/import-apply.ts writes node_tag_links',
  'ccx/import-apply.ts writes source_citations',
  'ccx/import-apply.ts writes relationship_citations',
  'ccx/workflows.ts reads triggers',
  'ccx/workflows.ts writes triggers',
  'ccx/workflows.ts writes workflows',
  'extraction/agent/service.ts reads sources',
  'extraction/service.ts reads node_sources',
  'extraction/service.ts reads edge_sources',
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

/**
 * The adapters (every service's src/ and the CLI) reach the domain through module services only, so
 * they name no table and build no query (docs/architecture.md).
 */
async function adapterDirs(): Promise<string[]> {
  const services = (await readdir(path.join(root, 'services'))).sort().map((name) => `services/${name}/src`);
  return [...services, 'packages/cli/src'];
}

/** What `file` (relative to the repository) does to tables: each access and each query it builds. */
function adapterFindings(file: string, text: string): string[] {
  return [
    ...tableAccesses(file, text, tables).map((access) => `${file}:${access.line} ${access.kind}s ${access.table}`),
    ...queryCalls(file, text).map((query) => `${file}:${query.line} builds a query (${query.call})`),
  ];
}

async function adapterQueries(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of await adapterDirs()) {
    for (const file of (await readdir(path.join(root, dir), { recursive: true })).sort()) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const relative = `${dir}/${file.split(path.sep).join('/')}`;
      found.push(...adapterFindings(relative, await readFile(path.join(root, relative), 'utf8')));
    }
  }
  return found;
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

  it('services and the CLI name no table and build no query: they call module services', async () => {
    expect(await adapterQueries()).toEqual([]);
  });

  it('is able to fail: an adapter reading, writing or querying any table, named or computed, is seen', async () => {
    const file = 'tests/architecture/fixtures/adapter-builds-queries.ts';
    expect(adapterFindings(file, await readFile(path.join(root, file), 'utf8'))).toEqual([
      `${file}:5 reads graph_nodes`,
      `${file}:6 reads graph_edges`,
      `${file}:8 writes sources`,
      `${file}:5 builds a query (db)`,
      `${file}:6 builds a query (raw)`,
      `${file}:7 builds a query (whereRaw)`,
      `${file}:7 builds a query (db)`,
      `${file}:8 builds a query (trx)`,
    ]);
  });
});
