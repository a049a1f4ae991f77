import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { exportedPackage } from '../support/ccx-package.ts';
import { queueCcxImport, validateCcxPackage } from '@rhizome/core/ccx';
import { countsOf, graphImage } from '../../packages/core/test/ccx/graph-image.ts';
import { entriesOf, rawZip, zipEntries } from '../../packages/core/test/ccx/zip-fixtures.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { waitForTask } from '../support/wait.ts';

const curie = [
  'Marie Curie was a physicist and chemist who was born in Warsaw in 1867.',
  'Marie Curie married Pierre Curie in Paris in 1895.',
  'In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel.',
].join(' ');
const becquerel = [
  'Henri Becquerel was a French physicist who discovered radioactivity in 1896.',
  'Henri Becquerel worked in Paris at the Museum of Natural History.',
].join(' ');
const conformance = path.resolve(import.meta.dirname, '../../../shared/testdata/ccx3-conformance');

/** A server with an account, and the calls the tests make against it. */
async function client(server: TestServer) {
  const cookie = await setUpAccount(server);
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const db = async () => (await server.platform.databases.current()).db;
  const finished = (taskId: string) => waitForTask(call, taskId, { timeoutMs: 60_000 });
  const importPackage = async (bytes: Buffer, fields: Record<string, string> = {}, filename = 'package.ccx') => {
    const response = await uploadSources(
      server,
      cookie,
      '/exports/import',
      [{ name: filename, content: bytes }],
      fields,
    );
    return response;
  };
  const importAndWait = async (bytes: Buffer, merge: boolean) => {
    const accepted = await importPackage(bytes, { merge: String(merge) });
    expect(accepted.status, accepted.text).toBe(202);
    const task = await finished((accepted.body as { task_id: string }).task_id);
    expect(task.status, task.error ?? '').toBe('completed');
    const stats = task.result as Record<string, unknown>;
    // What arrived without vectors is embedded in the background: wait, so counts are settled.
    if (stats.reembed_task_id) expect((await finished(stats.reembed_task_id as string)).status).toBe('completed');
    return stats;
  };
  const exportPackage = async (route: string, body?: unknown) => {
    const accepted = await call('POST', route, body);
    expect(accepted.status, accepted.text).toBe(202);
    const taskId = (accepted.body as { task_id: string }).task_id;
    const task = await finished(taskId);
    expect(task.status, task.error ?? '').toBe('completed');
    const result = task.result as { content: string; filename: string; size_bytes: number; download_url: string };
    return { taskId, result, bytes: Buffer.from(result.content, 'base64') };
  };
  return { cookie, call, db, finished, importPackage, importAndWait, exportPackage };
}

describe('CCX export and import', () => {
  let origin: TestServer;
  let target: TestServer;
  let from: Awaited<ReturnType<typeof client>>;
  let into: Awaited<ReturnType<typeof client>>;
  let sourceIds: string[];

  beforeAll(async () => {
    [origin, target] = await Promise.all([startTestServer(), startTestServer()]);
    [from, into] = await Promise.all([client(origin), client(target)]);
    sourceIds = [];
    for (const [name, content] of [
      ['curie.txt', curie],
      ['becquerel.txt', becquerel],
    ]) {
      const accepted = await uploadSources(origin, from.cookie, '/sources', [{ name, content }], {
        auto_confirm: 'true',
        domain: 'biographical',
      });
      expect(accepted.status, accepted.text).toBe(202);
      sourceIds.push((accepted.body as SourceResponseBody).id);
    }
    for (const id of sourceIds)
      expect((await waitForSource(origin, from.cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
    const tag = await from.call('POST', '/sources/tags', { name: 'physics', color: '#ff0000' });
    expect(tag.status, tag.text).toBe(201);
    await from.call('POST', `/sources/${sourceIds[0]}/tags/${(tag.body as { id: string }).id}`);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([origin?.stop(), target?.stop()]);
  });

  it('exports a database built by the pipeline and imports it into an empty one with everything equal', async () => {
    const { taskId, result, bytes } = await from.exportPackage('/exports?include_embeddings=true');
    expect(result.filename).toMatch(/^knowledge_export_\d{8}_\d{6}\.ccx$/);
    expect(result.size_bytes).toBe(bytes.length);
    const entries = await entriesOf(bytes);
    expect([...entries.keys()]).toEqual([
      'templates.jsonld',
      'knowledge.jsonld',
      'sources.jsonl',
      'manifest.json',
      'README.txt',
    ]);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      ccx_version: '2.0',
      package_version: '1.0.0',
      license: 'CC-BY-SA-4.0',
      name: 'rhizome/default',
      package_type: ['knowledge', 'sources', 'templates'],
    });
    expect(
      (manifest.contents as { checksum_sha256: string; checksum_sha512: string }[]).every(
        (file) => file.checksum_sha256.length === 44 && file.checksum_sha512.length === 88,
      ),
    ).toBe(true);

    const download = await fetch(`${origin.base}/exports/${taskId}/download`, { headers: { cookie: from.cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${result.filename}"`);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const stats = await into.importAndWait(bytes, false);
    const before = await countsOf(await from.db());
    expect(stats).toMatchObject({
      success: true,
      format_version: '2.0',
      checksum_verified: true,
      nodes_imported: before.graph_nodes,
      edges_imported: before.graph_edges,
      sources_imported: 2,
      errors: [],
    });
    expect(await graphImage(await into.db())).toEqual(await graphImage(await from.db()));
    const after = await countsOf(await into.db());
    expect(after).toEqual(before);
    expect(after.node_embeddings).toBeGreaterThan(0);
    expect(stats.embeddings_pending).toBe(0);
  });

  it('merging the same package again creates no duplicates; replacing clears what was there', async () => {
    const { bytes } = await from.exportPackage('/exports');
    await into.importAndWait(bytes, false);
    const once = await countsOf(await into.db());
    const again = await into.importAndWait(bytes, true);
    expect(again).toMatchObject({
      nodes_imported: 0,
      edges_imported: 0,
      sources_imported: 0,
      sources_skipped: 2,
      templates_imported: 0,
    });
    expect(again.nodes_updated).toBe(once.graph_nodes);
    expect(await countsOf(await into.db())).toEqual(once);
    expect(await graphImage(await into.db())).toEqual(await graphImage(await from.db()));

    const extra = await into.call('POST', '/nodes', {
      label: 'Lonely node',
      template_id: 'system_template_concept',
      properties: {},
    });
    expect(extra.status, extra.text).toBe(201);
    await into.importAndWait(bytes, false);
    expect(await countsOf(await into.db())).toEqual(once);
    expect(await (await into.db())('graph_nodes').where({ label: 'Lonely node' }).first()).toBeUndefined();
  });

  it('exports by sources exactly the entities those sources cite, the edges among them, and those sources', async () => {
    const { result, bytes } = await from.exportPackage('/exports/by_sources', [sourceIds[1]]);
    expect(result.filename).toMatch(/^sources_export_1_knowledge_export_/);
    const entries = await entriesOf(bytes);
    const knowledge = JSON.parse(entries.get('knowledge.jsonld')!.toString()) as {
      nodes: { id: string }[];
      edges: { source_node_id: string; target_node_id: string }[];
    };
    const db = await from.db();
    const cited = (
      (await db('source_citations').where({ source_id: sourceIds[1] }).distinct('entity_uri')) as {
        entity_uri: string;
      }[]
    )
      .map((row) => row.entity_uri)
      .sort();
    expect(knowledge.nodes.map((node) => node.id).sort()).toEqual(cited);
    const inside = new Set(cited);
    const between = (await db('graph_edges').select('id', 'source_node_id', 'target_node_id')).filter(
      (edge: { source_node_id: string; target_node_id: string }) =>
        inside.has(edge.source_node_id) && inside.has(edge.target_node_id),
    );
    expect(knowledge.edges).toHaveLength(between.length);
    const sources = entries
      .get('sources.jsonl')!
      .toString()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; chunks: unknown[]; citations: unknown[] });
    expect(sources.map((source) => source.id)).toEqual([sourceIds[1]]);
    expect(sources[0].citations.length).toBeGreaterThan(0);
    expect(sources[0].chunks.length).toBeGreaterThan(0);
  });

  it('imports every valid CCX 3.0 conformance package', async () => {
    for (const file of fs.readdirSync(path.join(conformance, 'valid'))) {
      const stats = await into.importAndWait(fs.readFileSync(path.join(conformance, 'valid', file)), false);
      expect(stats, file).toMatchObject({ success: true, format_version: '3.0' });
      const db = await into.db();
      if (file !== 'sources-only.ccx') {
        const alice = (await db('graph_nodes as n')
          .join('graph_templates as t', 't.id', 'n.template_id')
          .where('n.label', 'Alice Smith')
          .first('t.name')) as { name: string };
        expect(alice, file).toMatchObject({ name: 'Person' });
        expect(await db('graph_edges').where({ label: 'worksFor' }).count({ n: '*' }), file).toEqual([{ n: 1 }]);
      }
      if (file.startsWith('sources-')) expect(Number((await db('sources').count({ n: '*' }))[0].n), file).toBe(1);
      const chunks = ((await db('document_chunks').select('content')) as { content: string }[]).map(
        (chunk) => chunk.content,
      );
      if (file === 'sources-inline-chunk.ccx') expect(chunks).toEqual(['Alice Smith works for Acme Corporation.']);
      if (file === 'sources-minimal.ccx') expect(chunks).toEqual(['Alice Smith']);
    }
  });

  it('refuses every invalid package with 400, queues nothing and writes nothing', async () => {
    const valid = (await from.exportPackage('/exports')).bytes;
    const entries = await entriesOf(valid);
    const tampered = new Map(entries);
    tampered.set(
      'knowledge.jsonld',
      Buffer.from(entries.get('knowledge.jsonld')!.toString().replace('Marie Curie', 'Marie Kurie')),
    );
    const uncovered = new Map(entries);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as { contents: { path: string }[] };
    uncovered.set(
      'manifest.json',
      Buffer.from(
        JSON.stringify({ ...manifest, contents: manifest.contents.filter((file) => file.path !== 'sources.jsonl') }),
      ),
    );
    const hostile: [string, Buffer, RegExp][] = [
      ...fs
        .readdirSync(path.join(conformance, 'invalid'))
        .map((file): [string, Buffer, RegExp] => [
          file,
          fs.readFileSync(path.join(conformance, 'invalid', file)),
          /Invalid CCX package/,
        ]),
      ['tampered checksum', zipEntries(tampered), /checksum mismatch for 'knowledge.jsonld'/],
      ['data file without checksum', zipEntries(uncovered), /'sources.jsonl' is not covered by a checksum/],
      ['zip slip', zipEntries(new Map([...entries, ['../../etc/cron.d/evil', Buffer.from('x')]])), /path traversal/],
      ['absolute path', zipEntries(new Map([...entries, ['/tmp/evil', Buffer.from('x')]])), /absolute/],
      [
        'symlink',
        rawZip([
          ...[...entries].map(([name, data]) => ({ name, data })),
          { name: 'link', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 },
        ]),
        /link or special file/,
      ],
      ['zip bomb', rawZip([{ name: 'knowledge.jsonld', data: Buffer.alloc(64 * 1024 * 1024, 32) }]), /zip bomb/],
      [
        '6 GB declared size',
        rawZip([{ name: 'knowledge.jsonld', data: Buffer.from('{}'), method: 0, declaredSize: 6 * 1024 ** 3 }]),
        /declares 6442450944 bytes/,
      ],
      ['not a zip', Buffer.from('this is plain text, not an archive'), /not a ZIP archive/],
      [
        'no manifest',
        zipEntries(new Map([['knowledge.jsonld', entries.get('knowledge.jsonld')!]])),
        /manifest.json is missing/,
      ],
    ];
    const before = await countsOf(await into.db());
    const tasksBefore = (
      (await into.call('GET', '/queue/tasks?page_size=1000')).body as { pagination: { total: number } }
    ).pagination.total;
    for (const [label, bytes, message] of hostile) {
      const refused = await into.importPackage(bytes);
      expect(refused.status, `${label}: ${refused.text}`).toBe(400);
      expect(refused.body, label).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'file' } });
      expect((refused.body as { message: string }).message, label).toMatch(message);
    }
    expect(await countsOf(await into.db())).toEqual(before);
    expect(
      ((await into.call('GET', '/queue/tasks?page_size=1000')).body as { pagination: { total: number } }).pagination
        .total,
    ).toBe(tasksBefore);
    expect(fs.readdirSync(path.join(target.dataDir, 'imports')).filter((name) => name.endsWith('.ccx'))).toEqual([]);
  });

  it('carries user workflows: replaced with the data, not duplicated by a merge', async () => {
    const created = await from.call('POST', '/workflows', {
      name: 'Greeter',
      steps: [
        {
          id: 'pick',
          name: 'pick',
          tool_type: 'system_tool',
          tool_id: 'data.extract',
          configuration: { data: { greeting: 'hello' }, path: 'greeting' },
        },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const { bytes } = await from.exportPackage('/exports');
    const workflows = JSON.parse((await entriesOf(bytes)).get('workflows.jsonld')!.toString()) as {
      workflows: { workflow: { name: string } }[];
    };
    expect(workflows.workflows.map((definition) => definition.workflow.name)).toEqual(['Greeter']);
    const userWorkflows = async () =>
      ((await (await into.db())('workflows').where({ is_system: false }).select('name')) as { name: string }[]).map(
        (row) => row.name,
      );
    expect(await into.importAndWait(bytes, false)).toMatchObject({ workflows_imported: 1 });
    expect(await into.importAndWait(bytes, true)).toMatchObject({ workflows_imported: 0, workflows_skipped: 1 });
    expect(await userWorkflows()).toEqual(['Greeter']);
    const steps = (await (await into.db())('workflow_steps').where({ id: 'pick' }).select('tool_id')) as {
      tool_id: string;
    }[];
    expect(steps).toEqual([{ tool_id: 'data.extract' }]);
  });

  it('builds, validates and queues packages for other features (the registry) into a named database', async () => {
    const bytes = await exportedPackage(origin.platform, { include_embeddings: true });
    const counts = await countsOf(await from.db());
    const validated = await validateCcxPackage(bytes);
    expect(validated).toMatchObject({
      ccx_version: '2.0',
      name: 'rhizome/default',
      counts: { nodes: counts.graph_nodes, edges: counts.graph_edges, sources: counts.sources },
    });
    await expect(validateCcxPackage(Buffer.from('nope'))).rejects.toMatchObject({
      kind: 'bad_input',
      message: expect.stringMatching(/not a ZIP archive/),
    });
    await target.platform.databases.create('copy');
    const { task_id } = await queueCcxImport(target.platform, { bytes, merge: false, database: 'copy' });
    expect(await into.finished(task_id)).toMatchObject({ status: 'completed' });
    expect(await countsOf(await target.platform.databases.connection('copy'))).toMatchObject({
      graph_nodes: counts.graph_nodes,
      graph_edges: counts.graph_edges,
      source_citations: counts.source_citations,
    });
  });

  it('documents its endpoints and answers a missing file and an unfinished download precisely', async () => {
    const openApi = (await from.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(openApi.paths)).toEqual(
      expect.arrayContaining(['/exports', '/exports/by_sources', '/exports/import', '/exports/{task_id}/download']),
    );
    const missing = await fetch(`${origin.base}/exports/import`, {
      method: 'POST',
      headers: { cookie: from.cookie },
      body: new FormData(),
    });
    expect(missing.status).toBe(422);
    expect((await from.call('GET', '/exports/task_unknown/download')).status).toBe(404);
    expect((await from.call('POST', '/exports/by_sources', [])).status).toBe(422);
  });
});
