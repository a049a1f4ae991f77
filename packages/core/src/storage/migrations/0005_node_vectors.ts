import type { Knex } from 'knex';

/**
 * Node vectors get their own table, like chunk vectors: `node_embeddings` is the source of truth the
 * node vector index is rebuilt from (float32 BLOBs with the model and dimensions that made them;
 * `graph_nodes.embedding` stays the JSON copy the API shows). Existing node embeddings are copied over:
 * a vector is attributed to the model of the chunk vectors of its dimensions when exactly one such
 * model exists (the embedder that committed it), else recorded as supplied by a client (`user`).
 *
 * Template vectors stay on `graph_templates`; `embedding_seq` numbers their writes (a trigger) so a
 * vector index reader finds the ones written since its checkpoint, as rowids do for the two vector
 * tables, whose rows are replaced rather than updated. Vector tables are indexed by model and
 * dimensions: status checks ask whether any vector of another identity is left.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('node_embeddings', (table) => {
    table.string('node_id').primary().references('id').inTable('graph_nodes').onDelete('CASCADE');
    table.string('model').notNullable();
    table.integer('dimensions').notNullable();
    table.binary('vector').notNullable();
    table.index(['model', 'dimensions']);
  });
  await db.schema.alterTable('chunk_embeddings', (table) => {
    table.index(['model', 'dimensions']);
  });
  await db.schema.alterTable('graph_templates', (table) => {
    table.integer('embedding_seq');
    table.index(['embedding_seq']);
  });
  const nextSeq = '(SELECT COALESCE(MAX(embedding_seq), 0) + 1 FROM graph_templates)';
  await db.raw(`CREATE TRIGGER graph_templates_embedding_written AFTER UPDATE OF embedding ON graph_templates WHEN NEW.embedding IS NOT NULL
    BEGIN UPDATE graph_templates SET embedding_seq = ${nextSeq} WHERE rowid = NEW.rowid; END`);
  await db.raw(`CREATE TRIGGER graph_templates_embedding_inserted AFTER INSERT ON graph_templates WHEN NEW.embedding IS NOT NULL
    BEGIN UPDATE graph_templates SET embedding_seq = ${nextSeq} WHERE rowid = NEW.rowid; END`);
  await db.raw('UPDATE graph_templates SET embedding_seq = rowid WHERE embedding IS NOT NULL');
  await copyNodeEmbeddings(db);
}

const batch = 500;

async function copyNodeEmbeddings(db: Knex): Promise<void> {
  const models = (await db.raw(
    'SELECT dimensions, MIN(model) AS model, COUNT(DISTINCT model) AS models FROM chunk_embeddings GROUP BY dimensions',
  )) as { dimensions: number; model: string; models: number }[];
  const modelOf = new Map(models.filter((row) => row.models === 1).map((row) => [row.dimensions, row.model]));
  for (let after = -1; ;) {
    const rows = (await db.raw(
      'SELECT rowid, id, embedding FROM graph_nodes WHERE embedding IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT ?',
      [after, batch],
    )) as { rowid: number; id: string; embedding: string }[];
    if (!rows.length) return;
    after = rows[rows.length - 1].rowid;
    const copies = rows.flatMap((row) => {
      const values = parseVector(row.embedding);
      if (!values) return [];
      const vector = Float32Array.from(values);
      return [
        {
          node_id: row.id,
          model: modelOf.get(values.length) ?? 'user',
          dimensions: values.length,
          vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        },
      ];
    });
    for (let start = 0; start < copies.length; start += 100)
      await db('node_embeddings').insert(copies.slice(start, start + 100));
  }
}

function parseVector(text: string): number[] | null {
  try {
    const values = JSON.parse(text) as unknown;
    return Array.isArray(values) &&
      values.length > 0 &&
      values.every((value) => typeof value === 'number' && Number.isFinite(value))
      ? (values as number[])
      : null;
  } catch {
    return null;
  }
}

export async function down(): Promise<void> {}
