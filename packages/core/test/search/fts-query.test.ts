import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ftsQuery } from '../../src/search/fts-query.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';

const tenKb = 'lorem ipsum dolor "sit amet" consectetur* AND ( NEAR( label: ) '.repeat(160);

// [input, expected AND expression (null: no query)]
const cases: [string, string | null][] = [
  ['curie', '"curie"'],
  ['Marie Curie', '"Marie" "Curie"'],
  ['"Marie Curie" radium', '"Marie Curie" "radium"'],
  ['  "  spaced   phrase  "  ', '"spaced phrase"'],
  ['radio*', '"radio"*'],
  ["Curie's radium", '"Curie" "radium"'],
  ['Murry’S wife', '"Murry" "wife"'],
  ['"Curie\'s lab"', '"Curie\'s lab"'],
  ["'s", null],
  ['radio**', '"radio"*'],
  ['r*', '"r"'],
  ['*', null],
  ['***', null],
  ['*radio', '"*radio"'],
  ['ra*dio', '"ra*dio"'],
  ['foo-b*', '"foo-b"'],
  ['"unbalanced', '"unbalanced"'],
  ['un"balanced quote', '"un" "balanced" "quote"'],
  ['"one" "two', '"one" "two"'],
  ['say ""nothing""', '"say" "nothing"'],
  ['""', null],
  ['"   "', null],
  ['AND OR NOT', '"AND" "OR" "NOT"'],
  ['cats AND dogs', '"cats" "dogs"'],
  ['cats OR dogs NOT birds', '"cats" "dogs" "birds"'],
  ['NEAR(a b, 3)', '"NEAR(a" "b," "3)"'],
  ['NEAR', '"NEAR"'],
  ['label:x', '"x"'],
  ['LABEL:x -body:y', '"x" "y"'],
  ['body:secret label : x', '"secret" "x"'],
  ['{label body}: x', '"x"'],
  ['{label body}:', null],
  ['note:x', '"note:x"'],
  ['"label:x" phrase', '"label:x" "phrase"'],
  ['(a OR b) AND c', '"(a" "b)" "c"'],
  ['^start +plus -minus', '"^start" "+plus" "-minus"'],
  ['🙂', null],
  ['🙂 café 🚀', '"café"'],
  ['naïve*', '"naïve"*'],
  ['東京 タワー', '"東京" "タワー"'],
  ['tab\tand\nnewline\u0000nul\u0007bell', '"tab" "and" "newline" "nul" "bell"'],
  ['lone \uD800 surrogate', '"lone" "surrogate"'],
  ["'; DROP TABLE graph_nodes; --", '"DROP" "TABLE" "graph_nodes;"'],
  ['" OR 1=1 --', '"1=1"'],
  ['x" OR "1"="1', '"x" "OR" "1"'],
  ['repeat repeat repeat', '"repeat"'],
  ['', null],
  ['   ', null],
  ['...,;;!!', null],
];

describe('ftsQuery', () => {
  let db: Db;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fts-query-'));
    db = openSqlite(path.join(dir, 'fts.db'));
    // The same definitions as the migrations' fts_nodes and fts_chunks.
    await db.raw(
      "CREATE VIRTUAL TABLE nodes USING fts5(node_id UNINDEXED, label, body, tokenize = 'porter unicode61')",
    );
    await db.raw("CREATE VIRTUAL TABLE chunks USING fts5(content, tokenize = 'porter unicode61')");
    await db.raw(
      "INSERT INTO nodes VALUES ('1', 'Marie Curie', 'physicist radium'), ('2', 'radio', 'cats and dogs'), ('3', 'label x', 'body secret')",
    );
    await db.raw(
      "INSERT INTO chunks (content) VALUES ('Marie Curie studied radioactivity in Paris'), ('lorem ipsum dolor sit amet')",
    );
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs an expression against both tables, as keyword search does; throws when SQLite refuses it. */
  const accepted = async (match: string) => {
    await db.raw('SELECT node_id, bm25(nodes, 0, 3.0, 1.0) AS rank FROM nodes WHERE nodes MATCH ? ORDER BY rank', [
      match,
    ]);
    await db.raw('SELECT rowid, bm25(chunks) AS rank FROM chunks WHERE chunks MATCH ? ORDER BY rank', [match]);
  };

  it.each(cases)('%j', async (input, expected) => {
    const query = ftsQuery(input);
    expect(query?.all ?? null).toBe(expected);
    if (!query) return;
    await accepted(query.all);
    if (query.any !== null) await accepted(query.any);
  });

  it('caps a 10 kB input at 32 terms, each a valid expression', async () => {
    const query = ftsQuery(tenKb);
    expect(query?.terms.length).toBeLessThanOrEqual(32);
    await accepted(query!.all);
    await accepted(query!.any!);
    const many = ftsQuery(Array.from({ length: 100 }, (_, index) => `w${index}`).join(' '));
    expect(many?.terms).toHaveLength(32);
    expect(many?.terms[31]).toBe('"w31"');
  });

  it('cuts a huge single term without splitting a surrogate pair', async () => {
    const query = ftsQuery(`a${'😀'.repeat(5000)}`);
    expect(query).not.toBeNull();
    expect(query!.terms[0].length).toBeLessThanOrEqual(202 + 200);
    expect(query!.terms[0]).not.toMatch(/[\uD800-\uDBFF]"$/u);
    await accepted(query!.all);
  });

  it('ORs the terms for the fallback, and has none for a single term', () => {
    expect(ftsQuery('marie "pierre curie" radio*')?.any).toBe('"marie" OR "pierre curie" OR "radio"*');
    expect(ftsQuery('marie')?.any).toBeNull();
  });

  it('finds what the user meant', async () => {
    const nodeIds = async (input: string) =>
      (
        (await db.raw('SELECT node_id FROM nodes WHERE nodes MATCH ? ORDER BY bm25(nodes, 0, 3.0, 1.0)', [
          ftsQuery(input)!.all,
        ])) as { node_id: string }[]
      ).map((row) => row.node_id);
    expect(await nodeIds('"marie curie"')).toEqual(['1']);
    expect(await nodeIds('"curie marie"')).toEqual([]);
    expect(await nodeIds('radi*')).toEqual(['2', '1']);
    // A column filter is dropped: `label:` does not restrict the match to labels.
    expect(await nodeIds('label:secret')).toEqual(['3']);
    expect(await nodeIds('"label x"')).toEqual(['3']);
    expect(await nodeIds('cats AND dogs')).toEqual(['2']);
  });

  it('turns random hostile input into expressions SQLite accepts', async () => {
    const alphabet = [
      '"',
      '*',
      '(',
      ')',
      ':',
      '^',
      '+',
      '-',
      '{',
      '}',
      ',',
      ' ',
      ' ',
      '\t',
      'AND',
      'OR',
      'NOT',
      'NEAR',
      'NEAR(',
      'a',
      'bc',
      'é',
      '😀',
      '\u0000',
      '\uDC00',
      "'",
      ';',
      '\\',
      '%',
      '_',
      'label',
      'body',
      '1',
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 300; run++) {
      const input = Array.from(
        { length: 1 + Math.floor(random() * 20) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      const query = ftsQuery(input);
      if (!query) continue;
      await expect(accepted(query.all), input).resolves.toBeUndefined();
      if (query.any) await expect(accepted(query.any), input).resolves.toBeUndefined();
    }
  });
});
