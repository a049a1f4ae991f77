import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerRuntime } from '@rhizome/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupModule } from '../../src/backup/module.ts';
import { ccxModule } from '../../src/ccx/module.ts';
import { createPlatform, registerTaskHandlers, type Platform } from '../../src/platform/index.ts';
import { dialectOf, type Db } from '../../src/storage/index.ts';
import { runtimeSettings } from '../../src/tasks/index.ts';
import { dialects } from '../../../../tests/support/dialects.ts';
import { startPostgres, type TestPostgres } from '../../../../tests/support/postgres.ts';
import { until } from '../../../../tests/support/wait.ts';

const at = '2026-01-01T00:00:00.000Z';

/**
 * The export, import and backup tasks as a worker runs them, on SQLite and with every database a schema
 * of a throw-away server (RHIZOME_DATABASE_URL): a package exported from one database replaces another's
 * contents (its safety backup taken first), and a backup of it is restored and its vector indexes rebuilt.
 */
describe.each(dialects)('export, import and backup tasks on %s', (dialect) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rhizome-operations-${dialect}-`));
  let server: TestPostgres | undefined;
  let platform: Platform;
  let worker: WorkerRuntime;

  const handle = async (name: string) => ({ name, db: await platform.databases.connection(name) });
  const finished = async (taskId: string) => {
    await until(async () => ['completed', 'failed'].includes((await platform.tasks.get(taskId))?.status ?? ''), {
      timeoutMs: 60_000,
    });
    const task = await platform.tasks.get(taskId);
    expect(task, JSON.stringify(task)).toMatchObject({ status: 'completed' });
    return ((await platform.tasks.result(taskId, Date.now())) as { result: Record<string, unknown> }).result;
  };
  const counts = async (db: Db) =>
    Object.fromEntries(
      await Promise.all(
        ['sources', 'document_chunks', 'graph_nodes', 'graph_edges', 'fts_nodes', 'fts_chunks'].map(
          async (table) => [table, Number((await db(table).count({ n: '*' }).first())?.n)] as const,
        ),
      ),
    );

  beforeAll(async () => {
    if (dialect === 'postgres') server = await startPostgres();
    platform = await createPlatform({
      service: 'test',
      migrationPolicy: 'apply',
      env: {
        ...process.env,
        RHIZOME_DATA_DIR: dataDir,
        RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
        RHIZOME_QUEUE_URL: '',
        ...(server ? { RHIZOME_DATABASE_URL: server.url } : {}),
      },
    });
    registerTaskHandlers(platform);
    worker = new WorkerRuntime({
      store: platform.tasks,
      registry: platform.operations,
      settings: () => runtimeSettings(platform.settings.get()),
      pauseFilter: () => platform.pauseFilter.current(),
      logger: platform.logger,
    });
    worker.start();

    const { db } = await handle('default');
    expect(dialectOf(db)).toBe(dialect);
    await db('sources').insert({
      id: 'letters',
      title: 'Letters',
      status: 'committed',
      created_at: at,
      updated_at: at,
    });
    await db('document_chunks').insert(
      ['Ada wrote to Babbage.', 'Babbage answered.'].map((content, index) => ({
        id: `chunk_${index}`,
        source_id: 'letters',
        chunk_index: index,
        content,
        created_at: at,
      })),
    );
    await db('graph_nodes').insert(
      ['Ada', 'Babbage'].map((label) => ({
        id: label.toLowerCase(),
        template_id: 'system_template_person',
        label,
        created_at: at,
        updated_at: at,
      })),
    );
    await db('graph_edges').insert({
      id: 'wrote',
      template_id: 'system_template_link',
      source_node_id: 'ada',
      target_node_id: 'babbage',
      label: 'wrote to',
      created_at: at,
      updated_at: at,
    });
    await platform.databases.create('copy');
    const copy = await platform.databases.connection('copy');
    await copy('sources').insert({ id: 'old', title: 'Old', status: 'committed', created_at: at, updated_at: at });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await platform?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports a database and imports the package in place of another one, after its safety backup', async () => {
    const exported = await finished(
      (await ccxModule.service!(platform, await handle('default')).exportAll({})).task_id,
    );
    expect(exported.counts).toMatchObject({ nodes: 2, edges: 1, sources: 1, chunks: 2 });
    const bytes = Buffer.from(String(exported.content), 'base64');

    const copyService = ccxModule.service!(platform, await handle('copy'));
    const imported = await finished((await copyService.importBytes(bytes, false)).task_id);
    expect(imported).toMatchObject({ nodes_imported: 2, edges_imported: 1, sources_imported: 1, chunks_imported: 2 });
    const extension = dialect === 'postgres' ? 'sql' : 'db';
    expect(imported.safety_backup).toMatch(new RegExp(`^pre-import_\\d{8}_\\d{6}\\.${extension}$`));
    // What arrived without vectors is embedded in the background by the configured (builtin) embedder.
    await finished(String(imported.reembed_task_id));
    expect(Number((await (await handle('copy')).db('node_embeddings').count({ n: '*' }).first())?.n)).toBe(2);

    const copy = await platform.databases.connection('copy');
    expect(await copy('sources').pluck('title')).toEqual(['Letters']);
    // The node index holds the imported nodes only; the chunk index the copy's chunks (the default's seeded none).
    expect(await counts(copy)).toEqual({ ...(await counts((await handle('default')).db)), fts_nodes: 2 });
  });

  it('restores the safety backup the import took and rebuilds the vector indexes from it', async () => {
    const backups = backupModule.service!(platform, await handle('copy'));
    const safety = backups.list().find((info) => info.filename.startsWith('pre-import_'))!;
    const restored = await backups.restore(safety.filename);
    expect(await (await platform.databases.connection('copy'))('sources').pluck('title')).toEqual(['Old']);
    expect(await finished(restored.vector_task_id)).toMatchObject({ database: 'copy' });
    expect(backups.list().map((info) => info.kind)).toEqual(['safety', 'safety']);
  });
});
