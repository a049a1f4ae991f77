import { decodeVector, perDialect, selectRows, type Db } from '../../storage/index.ts';
import { userVectorModel } from '../../graph/index.ts';
import type { EmbeddingIdentity } from '../../providers/index.ts';
import type { VectorKind } from '../vectors/files.ts';
import type { VectorItem } from '../vectors/port.ts';

/**
 * How one item kind's vectors are read back from SQLite, the source of truth an index is rebuilt and
 * reconciled from. Only rows of the identity's model and dimensions count. Search's read model of the
 * sources feature's `chunk_vectors` and the graph's `node_embeddings`, `graph_nodes` and
 * `graph_templates`: raw SQL streaming BLOBs by rowid, as an index of a million vectors is rebuilt from
 * them.
 *
 * Every kind also has a write sequence (`seq`): an integer that grows with every vector written (a
 * replaced node or template vector gets a new one; a replaced chunk vector keeps its key, see
 * `chunkVectorSource`). A reader uses it to find, cheaply, the rows written since the checkpoint it
 * loaded (decision 0010: it covers them by an exact scan).
 */
export interface VectorSource {
  count(db: Db, identity: EmbeddingIdentity): Promise<number>;
  /** Rows with a label above `after`, ascending by label, at most `limit`. */
  scan(db: Db, identity: EmbeddingIdentity, after: number, limit: number): Promise<VectorItem[]>;
  /** The rows of these labels that exist. */
  fetch(db: Db, identity: EmbeddingIdentity, labels: number[]): Promise<VectorItem[]>;
  /** Every label, ascending. */
  labels(db: Db, identity: EmbeddingIdentity): Promise<number[]>;
  /** The highest write sequence of any row (whatever its identity), 0 when there is none. */
  lastSeq(db: Db): Promise<number>;
  /** Rows written after `seq`, ascending by sequence, at most `limit`. */
  since(db: Db, identity: EmbeddingIdentity, seq: number, limit: number): Promise<SequencedItem[]>;
  /** Sequence and label of the rows written before `seq`, newest first, at most `limit`. */
  before(db: Db, identity: EmbeddingIdentity, seq: number, limit: number): Promise<{ seq: number; label: number }[]>;
}

export interface SequencedItem extends VectorItem {
  seq: number;
}

/** SQL expressions locating the vectors of one kind; they are trusted constants, never user input. */
export interface SqlVectorColumns {
  /** Table or join holding one row per item with a vector. */
  from: string;
  /**
   * `from` with the label's table as the outer loop (a CROSS JOIN fixes SQLite's join order), for the
   * queries that walk or pick labels. Left to itself SQLite's planner reads the vectors through their model
   * index and sorts them all by label for every batch: 12 s a batch at a million chunks. PostgreSQL, which
   * has no such hint (nor CROSS JOIN … ON), plans `from` itself.
   */
  byLabel?: string;
  /** The table of the vectors alone, when `from` is a join that only adds the label: counts and sequences read it. */
  vectorTable?: string;
  /** Integer expression stable for the row's life (a rowid). */
  label: string;
  /** The vector: a BLOB of float32 values (`encodeVector`), or a JSON array of numbers. */
  vector: string;
  encoding?: 'float32' | 'json';
  model: string;
  dimensions: string;
  /** Integer expression that grows with every vector written (the vector row's rowid when rows are replaced, not updated). */
  seq: string;
  /**
   * Models whose rows count for any identity of their dimensions: vectors a client supplied
   * (`userVectorModel`), made by a model Rhizome cannot know.
   */
  sharedModels?: readonly string[];
}

const fetchBatch = 500;

export function sqlVectorSource(columns: SqlVectorColumns): VectorSource {
  const { from, label, vector, model, dimensions, seq } = columns;
  const byLabelOn = perDialect({ sqlite: () => columns.byLabel ?? from, postgres: () => from });
  const shared = columns.sharedModels ?? [];
  const vectorTable = columns.vectorTable ?? from;
  const where = `${model} in (${['?', ...shared.map(() => '?')].join(', ')}) and ${dimensions} = ?`;
  const bind = (identity: EmbeddingIdentity) => [identity.model, ...shared, identity.dimensions];
  const decode = columns.encoding === 'json' ? decodeJsonVector : decodeVector;
  const toItem = (row: { label: number; vector: Buffer | string }, identity: EmbeddingIdentity): VectorItem => ({
    label: row.label,
    vector: decode(row.vector as Buffer & string, identity.dimensions),
  });
  return {
    async count(db, identity) {
      const rows = await selectRows<{ count: number }>(
        db,
        `select count(*) as count from ${vectorTable} where ${where}`,
        bind(identity),
      );
      return rows[0].count;
    },
    async scan(db, identity, after, limit) {
      const rows = await selectRows<{ label: number; vector: Buffer }>(
        db,
        `select ${label} as label, ${vector} as vector from ${byLabelOn(db)} where ${where} and ${label} > ? order by ${label} limit ?`,
        [...bind(identity), after, limit],
      );
      return rows.map((row) => toItem(row, identity));
    },
    async fetch(db, identity, labels) {
      const items: VectorItem[] = [];
      for (let start = 0; start < labels.length; start += fetchBatch) {
        const batch = labels.slice(start, start + fetchBatch);
        const rows = await selectRows<{ label: number; vector: Buffer }>(
          db,
          `select ${label} as label, ${vector} as vector from ${byLabelOn(db)} where ${where} and ${label} in (${batch.map(() => '?').join(', ')})`,
          [...bind(identity), ...batch],
        );
        items.push(...rows.map((row) => toItem(row, identity)));
      }
      return items;
    },
    async labels(db, identity) {
      const rows = await selectRows<{ label: number }>(
        db,
        `select ${label} as label from ${byLabelOn(db)} where ${where} order by ${label}`,
        bind(identity),
      );
      return rows.map((row) => row.label);
    },
    async lastSeq(db) {
      const rows = await selectRows<{ seq: number | null }>(db, `select max(${seq}) as seq from ${vectorTable}`);
      return rows[0].seq ?? 0;
    },
    async since(db, identity, after, limit) {
      const rows = await selectRows<{ seq: number; label: number; vector: Buffer }>(
        db,
        `select ${seq} as seq, ${label} as label, ${vector} as vector from ${from} where ${where} and ${seq} > ? order by ${seq} limit ?`,
        [...bind(identity), after, limit],
      );
      return rows.map((row) => ({ seq: row.seq, ...toItem(row, identity) }));
    },
    async before(db, identity, before, limit) {
      return selectRows<{ seq: number; label: number }>(
        db,
        `select ${seq} as seq, ${label} as label from ${from} where ${where} and ${seq} < ? order by ${seq} desc limit ?`,
        [...bind(identity), before, limit],
      );
    },
  };
}

export function decodeJsonVector(text: string, dimensions: number): Float32Array {
  const values = JSON.parse(text) as unknown;
  if (!Array.isArray(values) || values.length !== dimensions)
    throw new Error(`stored vector is not a list of ${dimensions} numbers`);
  return Float32Array.from(values as number[]);
}

/**
 * Chunk vectors: `chunk_vectors`, keyed and labelled by the chunk row's rowid (the FTS index uses it too).
 * Every vector row has its chunk (the writer stores none for a missing chunk, a trigger deletes it with the
 * chunk), so no query joins `document_chunks`. The key is also the write sequence: indexing commits a
 * chunk's vector with the chunk, whose rowid is above every other. A vector replaced in place (re-embedding
 * with another model) keeps its sequence, so readers see it once the index has it (migration 0012).
 */
export const chunkVectorSource = sqlVectorSource({
  from: 'chunk_vectors',
  label: 'chunk_vectors.chunk_rowid',
  vector: 'chunk_vectors.vector',
  model: 'chunk_vectors.model',
  dimensions: 'chunk_vectors.dimensions',
  seq: 'chunk_vectors.chunk_rowid',
});

/**
 * Node vectors: `node_embeddings`, labelled by the node row's rowid (as the node full-text index is).
 * Vectors a client supplied count whenever their dimensions match (the client vouches for the model).
 */
export const nodeVectorSource = sqlVectorSource({
  from: 'node_embeddings join graph_nodes on graph_nodes.id = node_embeddings.node_id',
  byLabel: 'graph_nodes cross join node_embeddings on node_embeddings.node_id = graph_nodes.id',
  vectorTable: 'node_embeddings',
  label: 'graph_nodes.rowid',
  vector: 'node_embeddings.vector',
  model: 'node_embeddings.model',
  dimensions: 'node_embeddings.dimensions',
  seq: 'node_embeddings.rowid',
  sharedModels: [userVectorModel],
});

/** Template vectors: the JSON `embedding` of `graph_templates`, labelled by rowid; a trigger numbers every write (migration 0005). */
export const templateVectorSource = sqlVectorSource({
  from: 'graph_templates',
  label: 'graph_templates.rowid',
  vector: 'graph_templates.embedding',
  encoding: 'json',
  model: 'graph_templates.embedding_model',
  dimensions: 'graph_templates.embedding_dimensions',
  seq: 'graph_templates.embedding_seq',
});

export const vectorSources: Record<VectorKind, VectorSource> = {
  chunks: chunkVectorSource,
  nodes: nodeVectorSource,
  templates: templateVectorSource,
};

const rowTables: Record<VectorKind, string> = {
  chunks: 'document_chunks',
  nodes: 'graph_nodes',
  templates: 'graph_templates',
};

/** The ids of the items behind vector labels (row rowids) that still exist. */
export async function idsOfLabels(db: Db, kind: VectorKind, labels: number[]): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  for (let start = 0; start < labels.length; start += fetchBatch) {
    const batch = labels.slice(start, start + fetchBatch);
    const rows = await selectRows<{ label: number; id: string }>(
      db,
      `SELECT rowid AS label, id FROM ${rowTables[kind]} WHERE rowid IN (${batch.map(() => '?').join(', ')})`,
      batch,
    );
    for (const row of rows) ids.set(row.label, row.id);
  }
  return ids;
}
