import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commonTermRows,
  countedTermRows,
  forgetTermCounts,
  mayMatchMany,
  requiredTerms,
  termRowCounts,
} from '../../src/search/common-terms.ts';
import { ftsQuery } from '../../src/search/fts-query.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

const terms = (input: string) => ftsQuery(input)!.terms;
const counted = (entries: [string, number][]) => new Map(entries.map(([term, rows]) => [`"${term}"`, rows]));

describe('which terms a keyword search requires and ORs', () => {
  const counts = counted([
    ['who', countedTermRows],
    ['was', countedTermRows],
    ['film', commonTermRows],
    ['private', 50_000],
    ['born', 4_000],
    ['Warsaw', 300],
    ['physicist', 6_000],
    ['zebra', 0],
  ]);

  it('requires every term but the common ones; of common ones, the less common; of the most common, the first', () => {
    expect(requiredTerms(terms('who was born in Warsaw'), counts)).toEqual(['"born"', '"in"', '"Warsaw"']);
    expect(requiredTerms(terms('who was film private'), counts)).toEqual(['"film"', '"private"']);
    expect(requiredTerms(terms('who was'), counts)).toEqual(['"who"']);
  });

  it('leaves out a term in more than half of the indexed rows while a rarer one remains', () => {
    const small = counted([
      ['the', 60],
      ['of', 50],
      ['Curie', 3],
    ]);
    expect(requiredTerms(terms('the discoveries of Curie'), small, 100)).toEqual(['"discoveries"', '"of"', '"Curie"']);
    expect(requiredTerms(terms('the discoveries of Curie'), small, 90)).toEqual(['"discoveries"', '"Curie"']);
    expect(requiredTerms(terms('the'), small, 90)).toEqual(['"the"']);
    // Left with terms that match nothing, the query keeps them all (and falls back to any of them).
    expect(requiredTerms(terms('the zebra'), small, 90)).toEqual(['"the"', '"zebra"']);
  });

  it('tells from the counts whether an AND or an OR may match more than the common-term rows', () => {
    expect(mayMatchMany(terms('who was'), counts, 'all')).toBe(true);
    expect(mayMatchMany(terms('who born'), counts, 'all')).toBe(false);
    expect(mayMatchMany(terms('film'), counts, 'all')).toBe(false);
    expect(mayMatchMany(terms('born physicist Warsaw'), counts, 'any')).toBe(true);
    expect(mayMatchMany(terms('born physicist'), counts, 'any')).toBe(false);
  });
});

describe('term row counts', () => {
  let dir: string;
  let db: Db;
  const at = new Date().toISOString();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'common-terms-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    await db('sources').insert({ id: 'src', filename: 'a.txt', enabled: true, created_at: at, updated_at: at });
    await db('document_chunks').insert(
      Array.from({ length: 60 }, (_, index) => ({
        id: `c${index}`,
        source_id: 'src',
        chunk_index: index,
        created_at: at,
        content: `She was born here. ${index < 5 ? 'A physicist.' : ''} ${index === 7 ? 'Warsaw.' : ''} Filler ${index}.`,
      })),
    );
    await db.raw("INSERT INTO fts_nodes (rowid, node_id, label, body) VALUES (1, 'n1', 'Pierre', 'a physicist')");
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts chunks and nodes as the full-text index tokenises: stems, phrases and prefixes', async () => {
    const counts = await termRowCounts(db, terms('physicists Pierre "was born" Warsaw phys* zebra'));
    expect(Object.fromEntries(counts)).toEqual({
      '"physicists"': 6,
      '"Pierre"': 1,
      '"was born"': 60,
      '"Warsaw"': 1,
      '"phys"*': 6,
      '"zebra"': 0,
    });
  });

  it("reuses a database's counts until they are forgotten or expire", async () => {
    expect((await termRowCounts(db, ['"Warsaw"'])).get('"Warsaw"')).toBe(1);
    await db('document_chunks').insert({
      id: 'c_more',
      source_id: 'src',
      chunk_index: 100,
      content: 'Warsaw again',
      created_at: at,
    });
    expect((await termRowCounts(db, ['"Warsaw"'])).get('"Warsaw"')).toBe(1);
    forgetTermCounts(db);
    expect((await termRowCounts(db, ['"Warsaw"'])).get('"Warsaw"')).toBe(2);
  });
});
