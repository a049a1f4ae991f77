import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite, Migrator, encodeVector, type Db } from '@rhizome/core/storage';
import { storeChunkRows, type PreparedChunk } from '@rhizome/core/sources';

const passages = (JSON.parse(fs.readFileSync('/work/shared/testdata/eval/2wiki/corpus.json', 'utf8')) as { text: string }[]).map((p) => p.text);
const N = Number(process.env.N ?? 20000);
const chunks: PreparedChunk[] = Array.from({ length: N }, (_, i) => ({
  id: `chk_${i.toString().padStart(8, '0')}_abcdef`, index: i, content: (passages[i % passages.length] + ' ' + passages[(i * 7) % passages.length]).slice(0, 700),
  start: i * 700, end: i * 700 + 700, page: null, section: null, tokenEstimate: 170, pageStarts: null, originalStart: i * 700, originalEnd: i * 700 + 700, offsetMatch: 'exact',
} as PreparedChunk));
const vectors = chunks.map(() => Float32Array.from({ length: 100 }, () => Math.random()));

async function fresh(): Promise<{ db: Db; done: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'p25-'));
  const db = openSqlite(path.join(dir, 'a.db'));
  await new Migrator(path.join(dir, 'b')).apply(db);
  const at = new Date().toISOString();
  await db('sources').insert({ id: 's', title: 's', source_type: 'file', status: 'indexing', created_at: at, updated_at: at });
  return { db, done: async () => { await db.destroy(); fs.rmSync(dir, { recursive: true, force: true }); } };
}
async function embKnex(db: Db, cs: PreparedChunk[], vs: Float32Array[]) {
  for (let s = 0; s < cs.length; s += 25) await db('chunk_embeddings').insert(cs.slice(s, s + 25).map((c, o) => ({ chunk_id: c.id, model: 'm', dimensions: 100, vector: encodeVector(vs[s + o]) }))).onConflict('chunk_id').merge();
}
async function embRaw(db: Db, cs: PreparedChunk[], vs: Float32Array[]) {
  const rows = 500;
  for (let s = 0; s < cs.length; s += rows) {
    const part = cs.slice(s, s + rows);
    const bindings: unknown[] = [];
    part.forEach((c, o) => bindings.push(c.id, 'm', 100, encodeVector(vs[s + o])));
    await db.raw(`INSERT OR REPLACE INTO chunk_embeddings (chunk_id, model, dimensions, vector) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`, bindings);
  }
}
const columns = ['id', 'source_id', 'chunk_index', 'content', 'page_number', 'section', 'start_offset', 'end_offset', 'original_start', 'original_end', 'offset_match', 'token_estimate', 'chunk_metadata', 'created_at'];
async function rowsRaw(db: Db, cs: PreparedChunk[]) {
  const rows = Number(process.env.ROWS ?? 500);
  for (let s = 0; s < cs.length; s += rows) {
    const part = cs.slice(s, s + rows);
    const b: unknown[] = [];
    for (const c of part) b.push(c.id, 's', c.index, c.content, c.page, c.section, c.start, c.end, c.originalStart, c.originalEnd, c.offsetMatch, c.tokenEstimate, null, 'x');
    const row = `(${columns.map(() => '?').join(', ')})`;
    await db.raw(`INSERT INTO document_chunks (${columns.join(', ')}) VALUES ${part.map(() => row).join(', ')}`, b);
  }
  await db('document_chunks').where({ source_id: 's' }).whereBetween('chunk_index', [cs[0].index, cs[cs.length - 1].index]).select('rowid', 'id');
}
async function rowsJson(db: Db, cs: PreparedChunk[]) {
  const values = columns.map((_, index) => `json_extract(value, '$[${index}]')`).join(', ');
  const rows = Number(process.env.ROWS ?? 500);
  for (let s = 0; s < cs.length; s += rows) {
    const batch = cs.slice(s, s + rows).map((c) => [c.id, 's', c.index, c.content, c.page, c.section, c.start, c.end, c.originalStart, c.originalEnd, c.offsetMatch, c.tokenEstimate, null, 'x']);
    await db.raw(`INSERT INTO document_chunks (${columns.join(', ')}) SELECT ${values} FROM json_each(?)`, [JSON.stringify(batch)]);
  }
  await db('document_chunks').where({ source_id: 's' }).whereBetween('chunk_index', [cs[0].index, cs[cs.length - 1].index]).select('rowid', 'id');
}
const wave = 2000;
const cases: Record<string, (db: Db) => Promise<void>> = {
  rowsAutocommit: async (db) => { for (let s = 0; s < N; s += wave) await storeChunkRows(db, 's', chunks.slice(s, s + wave), 'x'); },
  rowsTrx: async (db) => { for (let s = 0; s < N; s += wave) await db.transaction((t) => storeChunkRows(t, 's', chunks.slice(s, s + wave), 'x')); },
  rowsEmbKnexTrx: async (db) => { for (let s = 0; s < N; s += wave) await db.transaction(async (t) => { await storeChunkRows(t, 's', chunks.slice(s, s + wave), 'x'); await embKnex(t, chunks.slice(s, s + wave), vectors.slice(s, s + wave)); }); },
  rowsEmbRawTrx: async (db) => { for (let s = 0; s < N; s += wave) await db.transaction(async (t) => { await storeChunkRows(t, 's', chunks.slice(s, s + wave), 'x'); await embRaw(t, chunks.slice(s, s + wave), vectors.slice(s, s + wave)); }); },
  rawBothTrx: async (db) => { for (let s = 0; s < N; s += wave) await db.transaction(async (t) => { await rowsRaw(t, chunks.slice(s, s + wave)); await embRaw(t, chunks.slice(s, s + wave), vectors.slice(s, s + wave)); }); },
  jsonBothTrx: async (db) => { for (let s = 0; s < N; s += wave) await db.transaction(async (t) => { await rowsJson(t, chunks.slice(s, s + wave)); await embRaw(t, chunks.slice(s, s + wave), vectors.slice(s, s + wave)); }); },
};
for (const name of (process.env.CASES ?? Object.keys(cases).join(',')).split(',')) {
  const { db, done } = await fresh();
  const cpu = process.cpuUsage();
  const t = performance.now();
  await cases[name](db);
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  console.log(`${name}: wall ${wall.toFixed(0)} ms, main-thread+pool cpu user ${(used.user / 1000).toFixed(0)} ms sys ${(used.system / 1000).toFixed(0)} ms`);
  const [c] = await db('document_chunks').count({ n: '*' }); const [e] = await db('chunk_embeddings').count({ n: '*' }); const [f] = await db.raw("SELECT COUNT(*) AS n FROM fts_chunks WHERE fts_chunks MATCH 'the'");
  console.log('   rows', c.n, e.n, f.n);
  await done();
}
