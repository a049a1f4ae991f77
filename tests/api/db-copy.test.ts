import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { openSqlite, PostgresServer, selectRows, type Db } from '@rhizome/core/storage';
import { toolStep } from '../support/automation.ts';
import { runRhizome } from '../support/cli.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { setUpAccount, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { until } from '../support/wait.ts';

const curie = [
  'Marie Curie was a physicist and chemist who worked in Paris.',
  'Marie Curie married Pierre Curie in 1895.',
  'Pierre Curie was a French physicist.',
  'Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie and Henri Becquerel.',
  'Marie Curie was born in Warsaw. She founded the Radium Institute in Paris.',
].join('\n\n');

type Row = Record<string, unknown>;

/** Each table's columns as the database's own catalogue lists them (SQLite's implicit rowid included). */
async function sqliteTables(db: Db): Promise<Map<string, string[]>> {
  const tables = await selectRows<{ name: string; sql: string }>(
    db,
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'knex%'",
  );
  const virtual = tables.filter((table) => /VIRTUAL/i.test(table.sql)).map((table) => table.name);
  const result = new Map<string, string[]>();
  for (const { name, sql } of tables) {
    if (virtual.some((fts) => name.startsWith(`${fts}_`))) continue;
    const columns = await selectRows<{ name: string; type: string; pk: number }>(
      db,
      'SELECT * FROM pragma_table_info(?)',
      [name],
    );
    const aliased =
      columns.filter((column) => column.pk).length === 1 && columns.some((c) => c.pk && /^integer$/i.test(c.type));
    const rowid = !aliased && !/WITHOUT ROWID/i.test(sql);
    result.set(name, [...(rowid ? ['rowid'] : []), ...columns.map((column) => column.name)]);
  }
  return result;
}

async function postgresTables(db: Knex): Promise<Map<string, string[]>> {
  const rows = await selectRows<{ table_name: string; column_name: string; data_type: string }>(
    db,
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE 'knex%'
     ORDER BY c.ordinal_position`,
  );
  const result = new Map<string, string[]>();
  for (const row of rows)
    if (row.data_type !== 'tsvector')
      result.set(row.table_name, [...(result.get(row.table_name) ?? []), row.column_name]);
  return result;
}

/** Every row of `table` as plain values, `columns` only, in one order whatever the dialect's collation. */
async function rowsOf(db: Knex, table: string, columns: string[]): Promise<Row[]> {
  const list = columns.map((column) => (column === 'rowid' ? 'rowid' : `"${column}"`)).join(', ');
  const rows = await selectRows<Row>(db, `SELECT ${list} FROM "${table}"`);
  const plain = rows.map((row) =>
    Object.fromEntries(
      columns.map((column) => [
        column,
        Buffer.isBuffer(row[column]) ? (row[column] as Buffer).toString('hex') : row[column],
      ]),
    ),
  );
  return plain.sort((a, b) => {
    const x = JSON.stringify(a);
    const y = JSON.stringify(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Compares two databases table by table, field by field, on the columns both keep. */
async function expectSameRows(
  a: Knex,
  aTables: Map<string, string[]>,
  b: Knex,
  bTables: Map<string, string[]>,
): Promise<number> {
  expect([...bTables.keys()].sort()).toEqual([...aTables.keys()].sort());
  let compared = 0;
  for (const [table, aColumns] of aTables) {
    const bColumns = bTables.get(table)!;
    expect(bColumns.filter((c) => c !== 'rowid').sort(), table).toEqual(aColumns.filter((c) => c !== 'rowid').sort());
    const columns = aColumns.filter((column) => bColumns.includes(column));
    const [left, right] = [await rowsOf(a, table, columns), await rowsOf(b, table, columns)];
    expect(right, table).toEqual(left);
    compared += left.length;
  }
  return compared;
}

describe('rhizome db copy', () => {
  let origin: TestServer;
  let postgres: TestPostgres;
  let pgServer: PostgresServer;
  let sourceId: string;
  const pgData = tempDataDir();
  const finalData = tempDataDir();
  const originDb = () => path.join(origin.dataDir, 'databases', 'default');
  const results: Record<string, unknown> = {};
  const searchIds = async (server: TestServer, cookie: string, type: string, q: string) => {
    const found = await server.call('GET', `/search?${new URLSearchParams({ q, search_type: type })}`, { cookie });
    expect(found.status, found.text).toBe(200);
    return (
      found.body as { data: { result_type: string; node?: { id: string }; chunk?: { chunk_id: string } }[] }
    ).data.map((hit) => `${hit.result_type}:${hit.node?.id ?? hit.chunk?.chunk_id}`);
  };
  let originCookie: string;

  beforeAll(async () => {
    [origin, postgres] = await Promise.all([startTestServer({ env: { RHIZOME_DATABASE_URL: '' } }), startPostgres()]);
    pgServer = new PostgresServer(postgres.url);
    originCookie = await setUpAccount(origin);
    const call = (method: string, route: string, body?: unknown) =>
      origin.call(method, route, { cookie: originCookie, body });
    const accepted = await uploadSources(origin, originCookie, '/sources', [{ name: 'curie.txt', content: curie }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    expect(accepted.status, accepted.text).toBe(202);
    sourceId = (accepted.body as SourceResponseBody).id;
    expect((await waitForSource(origin, originCookie, sourceId, ['committed', 'error'], 90_000)).status).toBe(
      'committed',
    );
    const tag = await call('POST', '/sources/tags', { name: 'physics', color: '#ff0000' });
    expect(tag.status, tag.text).toBe(201);
    await call('POST', `/sources/${sourceId}/tags/${(tag.body as { id: string }).id}`);
    const chat = await call('POST', '/chats', { title: 'About the Curies', source_ids: [sourceId] });
    expect(chat.status, chat.text).toBe(201);
    const chatId = (chat.body as { id: string }).id;
    await call('POST', `/chats/${chatId}/messages`, { role: 'user', content: 'Whom did Marie Curie marry?' });
    await call('POST', `/chats/${chatId}/messages`, { role: 'assistant', content: 'Pierre Curie.' });
    const workflow = await call('POST', '/workflows', {
      name: 'Merge notes',
      category: 'notes',
      steps: [toolStep('merge', 'data.merge', { items: [{}] })],
    });
    expect(workflow.status, workflow.text).toBe(201);
    const trigger = await call('POST', '/triggers', {
      name: 'on new nodes',
      event_source: 'node.create',
      filters: {},
      workflow_id: (workflow.body as { id: string }).id,
    });
    expect(trigger.status, trigger.text).toBe(201);
    expect((await call('POST', '/databases', { name: 'second' })).status).toBe(201);
    // Nodes are embedded after the commit, by the auto-embed trigger's workflow: wait for every vector.
    const db = await origin.platform.databases.connection('default');
    await until(
      async () => {
        const [{ nodes }] = await selectRows<{ nodes: number }>(db, 'SELECT count(*) AS nodes FROM graph_nodes');
        const [{ vectors }] = await selectRows<{ vectors: number }>(
          db,
          'SELECT count(*) AS vectors FROM node_embeddings',
        );
        return nodes > 0 && vectors === nodes;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'every node embedded' },
    );
    results.keyword = await searchIds(origin, originCookie, 'keyword', 'Curie physicist');
    results.semantic = await searchIds(origin, originCookie, 'semantic', 'a scientist who married');
    await origin.stop();
  }, 240_000);
  afterAll(async () => {
    await pgServer?.close();
    await postgres?.stop();
    for (const dir of [pgData, finalData, origin?.dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies a pipeline-built database SQLite → PostgreSQL → SQLite, every field equal, search finding the same', async () => {
    const toPostgres = await runRhizome(
      ['db', 'copy', '--from', `sqlite:${originDb()}`, '--to', `${postgres.url}#default`, '--data-dir', pgData],
      pgData,
      {},
      120_000,
    );
    expect(toPostgres.code, toPostgres.output).toBe(0);
    expect(toPostgres.output).toMatch(/Verified: every table's row count and checksum match/);

    const source = openSqlite(path.join(originDb(), 'app.db'));
    const copied = pgServer.database('default');
    try {
      const sourceTables = await sqliteTables(source);
      const compared = await expectSameRows(source, sourceTables, copied, await postgresTables(copied));
      expect(compared).toBeGreaterThan(50);
      // What the pipeline built is all there: one source with its original, chunks, vectors, graph, the rest.
      for (const table of [
        'sources',
        'document_chunks',
        'chunk_vectors',
        'graph_nodes',
        'graph_edges',
        'node_embeddings',
        'source_citations',
        'source_quality_scores',
        'source_tag_links',
        'chats',
        'chat_messages',
        'workflows',
        'triggers',
        'fts_chunks',
        'fts_nodes',
      ]) {
        const [{ n }] = await selectRows<{ n: number }>(copied, `SELECT count(*) AS n FROM ${table}`);
        expect(n, table).toBeGreaterThan(0);
      }
      // Identity sequences continue after the copied ids.
      const [{ next }] = await selectRows<{ next: number }>(
        copied,
        "SELECT nextval(pg_get_serial_sequence('chat_messages', 'seq')) AS next",
      );
      expect(next).toBe(3);
    } finally {
      await source.destroy();
      await copied.destroy();
    }
    const original = fs.readdirSync(path.join(pgData, 'databases', 'default', 'sources', sourceId));
    expect(fs.readFileSync(path.join(pgData, 'databases', 'default', 'sources', sourceId, original[0]), 'utf8')).toBe(
      curie,
    );

    const back = await runRhizome(
      [
        'db',
        'copy',
        '--from',
        `${postgres.url}?database=default`,
        '--to',
        `sqlite:${finalData}/databases/default`,
        '--data-dir',
        pgData,
      ],
      finalData,
      {},
      120_000,
    );
    expect(back.code, back.output).toBe(0);
    const first = openSqlite(path.join(originDb(), 'app.db'));
    const last = openSqlite(path.join(finalData, 'databases', 'default', 'app.db'));
    const pg = pgServer.database('default');
    try {
      // The rowids PostgreSQL does not keep (tables no module keys by rowid) are made afresh on the way back.
      const pgTables = await postgresTables(pg);
      const kept = (tables: Map<string, string[]>) =>
        new Map(
          [...tables].map(([table, columns]) => [
            table,
            columns.filter(
              (column) => column !== 'rowid' || pgTables.get(table)?.includes('rowid') || table.startsWith('fts_'),
            ),
          ]),
        );
      await expectSameRows(first, kept(await sqliteTables(first)), last, kept(await sqliteTables(last)));
      expect(await selectRows(last, 'PRAGMA foreign_key_check')).toEqual([]);
      expect(await selectRows(last, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")).toEqual(
        await selectRows(first, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"),
      );
    } finally {
      await Promise.all([first.destroy(), last.destroy(), pg.destroy()]);
    }

    const copy = await startTestServer({ dataDir: finalData, env: { RHIZOME_DATABASE_URL: '' } });
    try {
      const cookie = await setUpAccount(copy);
      expect(await searchIds(copy, cookie, 'keyword', 'Curie physicist')).toEqual(results.keyword);
      // Semantic hits as a set: items of (near) equal similarity may swap places between two HNSW searches.
      expect((await searchIds(copy, cookie, 'semantic', 'a scientist who married')).sort()).toEqual(
        [...(results.semantic as string[])].sort(),
      );
      expect((results.keyword as string[]).length).toBeGreaterThan(0);
      expect((results.semantic as string[]).length).toBeGreaterThan(0);
      const source = await copy.call('GET', `/sources/${sourceId}`, { cookie });
      expect(source.body).toMatchObject({ status: 'committed', filename: 'curie.txt' });
    } finally {
      await copy.stop();
    }
  }, 300_000);

  it('refuses a target holding data without --replace, and replaces it with', async () => {
    const args = [
      'db',
      'copy',
      '--from',
      `sqlite:${originDb()}`,
      '--to',
      `${postgres.url}#default`,
      '--data-dir',
      pgData,
    ];
    const refused = await runRhizome(args, pgData);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toMatch(/^rhizome: .*already holds data \(.*\): pass --replace to overwrite it$/m);
    const replaced = await runRhizome([...args, '--replace'], pgData, {}, 120_000);
    expect(replaced.code, replaced.output).toBe(0);
    expect(replaced.output).toContain('(replaced)');
    const schemas = await pgServer.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rhizome%' ORDER BY 1",
    );
    expect(schemas.map((row) => row.nspname)).toEqual(['rhizome_default']);
  }, 180_000);

  it('copies every database with --all, checking every target before the first copy', async () => {
    const args = [
      'db',
      'copy',
      '--all',
      '--from',
      `sqlite:${origin.dataDir}`,
      '--to',
      postgres.url,
      '--data-dir',
      pgData,
    ];
    const refused = await runRhizome(args, pgData);
    expect(refused.code, refused.output).toBe(1);
    expect(await pgServer.query("SELECT 1 FROM pg_namespace WHERE nspname = 'rhizome_second'")).toEqual([]);
    const all = await runRhizome([...args, '--replace', '--json'], pgData, {}, 180_000);
    expect(all.code, all.output).toBe(0);
    const reports = JSON.parse(all.output.slice(all.output.indexOf('['))) as { to: string; rows: number }[];
    expect(reports.map((report) => report.to)).toEqual([
      'postgres schema rhizome_default',
      'postgres schema rhizome_second',
    ]);
    expect(reports[1].rows).toBeGreaterThan(0);
  }, 240_000);

  it('answers one line and its exit code for a bad URL, a server not answering, a missing database, a running service', async () => {
    const help = await runRhizome(['db', 'copy', '--help'], finalData);
    expect(help.code).toBe(0);
    expect(help.output).toMatch(/^Usage: rhizome db copy \[options\][\s\S]*--replace[\s\S]*Stores:/);
    const incomplete = await runRhizome(['db', 'copy', '--from', `sqlite:${originDb()}`], finalData);
    expect(incomplete.code).toBe(2);
    expect(incomplete.output).toMatch(/^rhizome: db copy needs --from and --to/);
    const bad = await runRhizome(
      ['db', 'copy', '--from', 'mysql://x', '--to', `sqlite:${finalData}/databases/x`],
      finalData,
    );
    expect(bad.code).toBe(2);
    expect(bad.output.trim()).toMatch(/^rhizome: 'mysql:\/\/x' is neither sqlite:/);
    const refused = await runRhizome(
      ['db', 'copy', '--from', `sqlite:${originDb()}`, '--to', 'postgres://rhizome:pw@127.0.0.1:1/rhizome#x'],
      finalData,
    );
    expect(refused.code, refused.output).toBe(3);
    expect(refused.output.trim()).toMatch(
      /^rhizome: no PostgreSQL server answers at 127\.0\.0\.1:1 \(connection refused\)/,
    );
    expect(refused.output).not.toContain('pw');
    const missing = await runRhizome(
      [
        'db',
        'copy',
        '--from',
        `${postgres.url}#nothing`,
        '--to',
        `sqlite:${finalData}/databases/nothing`,
        '--data-dir',
        pgData,
      ],
      finalData,
    );
    expect(missing.code, missing.output).toBe(5);
    expect(
      missing.output
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('rhizome:')),
    ).toEqual(['rhizome: there is no database at postgres schema rhizome_nothing']);
    // A source at an older revision than this code writes is refused, not copied into a newer schema.
    const older = path.join(finalData, 'databases', 'older');
    fs.mkdirSync(older, { recursive: true });
    for (const file of ['app.db', 'app.db-wal'])
      if (fs.existsSync(path.join(originDb(), file)))
        fs.copyFileSync(path.join(originDb(), file), path.join(older, file));
    const stale = openSqlite(path.join(older, 'app.db'));
    await stale.raw('DELETE FROM knex_migrations WHERE id = (SELECT max(id) FROM knex_migrations)');
    await stale.destroy();
    const behind = await runRhizome(
      ['db', 'copy', '--from', `sqlite:${older}`, '--to', `${postgres.url}#older`, '--data-dir', pgData],
      finalData,
    );
    expect(behind.code, behind.output).toBe(1);
    expect(behind.output).toMatch(
      /^rhizome: sqlite:.*older\/app\.db is at revision \d{4}, this Rhizome writes \d{4}: upgrade it first/m,
    );
    // A `rhizome serve` holds its data directory's lock (here: this test process, alive, holds it).
    const lock = path.join(finalData, 'run', 'serve.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'test', since: 'now' }));
    const locked = await runRhizome(
      [
        'db',
        'copy',
        '--from',
        `sqlite:${finalData}/databases/default`,
        '--to',
        `${postgres.url}#other`,
        '--data-dir',
        pgData,
      ],
      finalData,
    );
    fs.rmSync(lock);
    expect(locked.code, locked.output).toBe(1);
    expect(locked.output.trim()).toMatch(
      /^rhizome: another Rhizome \(pid \d+, since now\) is serving the data directory/,
    );
  }, 120_000);
});
