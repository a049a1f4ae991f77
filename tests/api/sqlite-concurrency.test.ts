import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '@rhizome/core/storage';
import { tempDataDir } from '../support/server.ts';
import { sleep } from '../support/wait.ts';

describe('two connections writing one SQLite file (API and worker processes)', () => {
  const opened: Db[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.destroy();
  });

  function open(file: string): Db {
    const db = openSqlite(file);
    opened.push(db);
    return db;
  }

  it('lets a transaction that reads then writes finish while the other connection commits in between', async () => {
    const file = path.join(tempDataDir(), 'app.db');
    const api = open(file);
    const worker = open(file);
    await api.schema.createTable('counters', (table) => {
      table.string('id').primary();
      table.integer('value');
    });
    await api('counters').insert({ id: 'edges', value: 0 });

    let otherCommit: Promise<unknown> = Promise.resolve();
    await api.transaction(async (trx) => {
      const row = await trx('counters').where({ id: 'edges' }).first();
      otherCommit = worker('counters').where({ id: 'edges' }).increment('value', 10).then();
      await sleep(50);
      await trx('counters')
        .where({ id: 'edges' })
        .update({ value: row.value + 1 });
    });
    await otherCommit;

    expect((await api('counters').where({ id: 'edges' }).first()).value).toBe(11);
  });

  it('keeps read-only transactions deferred so they do not hold the writer up', async () => {
    const file = path.join(tempDataDir(), 'app.db');
    const api = open(file);
    const worker = open(file);
    await api.schema.createTable('notes', (table) => table.string('id').primary());

    await api.transaction(
      async (trx) => {
        await trx('notes').select();
        await worker('notes').insert({ id: 'written-during-read' });
      },
      { readOnly: true },
    );

    expect(await api('notes').pluck('id')).toEqual(['written-during-read']);
  });
});
