import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Migrator,
  openSqlite,
  postgresBackups,
  PostgresServer,
  quoteIdentifier,
  schemaOf,
  shippedMigrations,
  type Db,
  type Migration,
} from '@rhizome/core/storage';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { postgresShape, shapeDifferences, sqliteShape } from '../support/schema-shape.ts';

/** Both dialects at the head revision, described from their own catalogues and compared. */
describe('the head schema on SQLite and on PostgreSQL', () => {
  let postgres: TestPostgres;
  let server: PostgresServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-shape-'));
  const opened: Db[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    server = new PostgresServer(postgres.url);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
    await server?.close();
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh database of each dialect migrated with `migrations`. */
  async function migrateBoth(name: string, migrations: Migration[]): Promise<{ sqlite: Knex; postgres: Knex }> {
    const sqlite = openSqlite(path.join(dir, name, 'app.db'));
    await server.query(`CREATE SCHEMA ${quoteIdentifier(schemaOf(name))}`);
    const pg = server.database(name);
    opened.push(sqlite, pg);
    await new Migrator(path.join(dir, name, 'backups'), migrations).apply(sqlite);
    await new Migrator(
      path.join(dir, name, 'pg-backups'),
      migrations,
      postgresBackups(postgres.url, schemaOf(name)),
    ).apply(pg);
    return { sqlite, postgres: pg };
  }

  it('has the same tables, columns, keys, indexes and foreign keys in both', async () => {
    const both = await migrateBoth('head', shippedMigrations);
    const [left, right] = [await sqliteShape(both.sqlite), await postgresShape(both.postgres, schemaOf('head'))];
    expect(Object.keys(right).length).toBeGreaterThan(40);
    expect(right.graph_edges.foreignKeys).toContain('(source_node_id) -> graph_nodes(id) ON DELETE CASCADE');
    expect(shapeDifferences(left, right)).toEqual([]);
    const revisions = async (db: Knex) => (await db('knex_migrations').orderBy('id').pluck('name')) as string[];
    expect(await revisions(both.postgres)).toEqual(await revisions(both.sqlite));
  });

  it('fails a revision that forgets one dialect', async () => {
    const forgetful: Migration = {
      name: '9001_notes',
      up: async (db) => {
        await db.schema.createTable('notes', (table) => {
          table.string('id').primary();
          table.string('note_source').references('id').inTable('sources').onDelete('CASCADE');
        });
      },
      down: async () => {},
      postgres: {
        up: async (db) => {
          await db.schema.createTable('notes', (table) => table.string('id').primary());
        },
        down: async () => {},
      },
    };
    const both = await migrateBoth('forgetful', [...shippedMigrations, forgetful]);
    const differences = shapeDifferences(
      await sqliteShape(both.sqlite),
      await postgresShape(both.postgres, schemaOf('forgetful')),
    );
    expect(differences).toEqual([
      'notes.note_source: sqlite {"type":"text","notNull":false}, postgres undefined',
      'notes foreignKeys: sqlite ["(note_source) -> sources(id) ON DELETE CASCADE"], postgres []',
    ]);
  });
});
