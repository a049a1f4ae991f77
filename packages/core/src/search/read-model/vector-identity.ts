import type { Settings } from '@rhizome/contracts/settings';
import type { EmbeddingIdentity } from '../../providers/index.ts';
import type { EmbeddingService } from '../../providers/index.ts';
import { selectRows, type Db } from '../../storage/index.ts';
import type { VectorKind } from '../vectors/files.ts';
import { userVectorModel } from '../../graph/index.ts';

/**
 * Which vectors count: those of the configured embedder (the `embedding` settings group decides the
 * provider and model, the model its dimensions). Stored vectors of any other model or dimensions are
 * orphans: semantic search ignores them and falls back to keyword search while any are left, and
 * `POST /search/indexes` re-embeds them. Vectors record their model, not their provider. A node vector
 * a client supplied (model `user`) is never an orphan: it is searched when its dimensions match.
 */

/**
 * Where each kind's vectors are stored, for the identity checks (trusted constants): search's read model
 * of the sources feature's `chunk_vectors` and the graph's `node_embeddings` and `graph_templates`,
 * grouped and counted in SQL because they may be millions of rows.
 */
const vectorTables: Record<
  VectorKind,
  { table: string; model: string; dimensions: string; shared: readonly string[] }
> = {
  chunks: { table: 'chunk_vectors', model: 'model', dimensions: 'dimensions', shared: [] },
  nodes: { table: 'node_embeddings', model: 'model', dimensions: 'dimensions', shared: [userVectorModel] },
  templates: { table: 'graph_templates', model: 'embedding_model', dimensions: 'embedding_dimensions', shared: [] },
};

export interface ResolvedIdentity {
  identity: EmbeddingIdentity;
  /** False when the dimensions are only the `search.vector_dimensions` setting: a remote model that has not answered yet and has no stored vectors. */
  dimensionsKnown: boolean;
}

/**
 * The configured embedder's identity. A remote model's dimensions are known once it answered; until
 * then they are those of its stored vectors, else the `search.vector_dimensions` setting.
 */
export async function configuredIdentity(
  db: Db,
  embeddings: EmbeddingService,
  settings: Settings,
): Promise<ResolvedIdentity> {
  const { provider, model, dimensions } = embeddings.identity();
  if (dimensions !== null) return { identity: { provider, model, dimensions }, dimensionsKnown: true };
  for (const { table, model: modelColumn, dimensions: dimensionsColumn } of Object.values(vectorTables)) {
    const row = (await db(table).where(modelColumn, model).first(`${dimensionsColumn} as dimensions`)) as
      { dimensions: number } | undefined;
    if (row) return { identity: { provider, model, dimensions: row.dimensions }, dimensionsKnown: true };
  }
  return { identity: { provider, model, dimensions: settings.search.vector_dimensions }, dimensionsKnown: false };
}

/**
 * Whether any stored vector is of another model or dimensions than `identity`. One statement of index
 * seeks (ranges around the accepted models), so it is cheap enough to ask before every search.
 */
export async function hasOrphanedVectors(db: Db, identity: EmbeddingIdentity): Promise<boolean> {
  const parts: string[] = [];
  const bindings: (string | number)[] = [];
  for (const { table, model, dimensions, shared } of Object.values(vectorTables)) {
    const accepted = [...new Set([identity.model, ...shared])].sort();
    const probe = (where: string, values: (string | number)[]) => {
      parts.push(`EXISTS (SELECT 1 FROM ${table} WHERE ${where})`);
      bindings.push(...values);
    };
    probe(`${model} < ?`, [accepted[0]]);
    for (let index = 1; index < accepted.length; index += 1)
      probe(`${model} > ? AND ${model} < ?`, [accepted[index - 1], accepted[index]]);
    probe(`${model} > ?`, [accepted[accepted.length - 1]]);
    if (!shared.includes(identity.model)) {
      probe(`${model} = ? AND ${dimensions} < ?`, [identity.model, identity.dimensions]);
      probe(`${model} = ? AND ${dimensions} > ?`, [identity.model, identity.dimensions]);
    }
  }
  const [row] = await selectRows<{ orphaned: number }>(db, `SELECT (${parts.join(' OR ')}) AS orphaned`, bindings);
  return row.orphaned === 1;
}

export interface StoredVectorGroup {
  kind: VectorKind;
  model: string;
  dimensions: number;
  count: number;
}

/** How many vectors are stored per kind, model and dimensions (client-supplied node vectors left out). */
export async function storedVectorGroups(db: Db): Promise<StoredVectorGroup[]> {
  const groups: StoredVectorGroup[] = [];
  for (const [kind, { table, model, dimensions, shared }] of Object.entries(vectorTables) as [
    VectorKind,
    (typeof vectorTables)[VectorKind],
  ][]) {
    const rows = await selectRows<{ model: string; dimensions: number; count: number }>(
      db,
      `SELECT ${model} AS model, ${dimensions} AS dimensions, COUNT(*) AS count FROM ${table} WHERE ${model} IS NOT NULL GROUP BY ${model}, ${dimensions}`,
    );
    for (const row of rows) if (!shared.includes(row.model)) groups.push({ kind, ...row });
  }
  return groups;
}

export function describeIdentity(identity: EmbeddingIdentity): string {
  return `${identity.provider}/${identity.model} (${identity.dimensions} dimensions)`;
}
