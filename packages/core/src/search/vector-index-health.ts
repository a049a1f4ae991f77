import type { Settings } from '@rhizome/contracts/settings';
import type { DatabaseManager } from '../databases/index.ts';
import type { SubsystemHealth } from '../module/index.ts';
import type { EmbeddingIdentity, EmbeddingService } from '../providers/index.ts';
import { configuredIdentity, describeIdentity, storedVectorGroups } from './read-model/vector-identity.ts';
import { VectorFiles, vectorKinds, type VectorKind } from './vectors/files.ts';
import { localStore } from './vectors/local-stores.ts';

export interface VectorIndexHealthDeps {
  databases: DatabaseManager;
  embeddings: EmbeddingService;
  settings(): Settings;
}

/** current: holds the configured embedder's vectors; empty: nothing to hold; not_built / stale: none yet, or another model's. */
type IndexState = 'current' | 'empty' | 'not_built' | 'stale';

interface KindHealth {
  state: IndexState;
  /** Vectors the index holds: live when this process writes it, else as of its last checkpoint. */
  indexed: number;
  /** Vectors of the configured embedder stored in SQLite, the source of truth the index is built from. */
  stored: number;
  checkpointed_at: string | null;
}

const sameVectors = (
  a: Pick<EmbeddingIdentity, 'model' | 'dimensions'>,
  b: Pick<EmbeddingIdentity, 'model' | 'dimensions'>,
) => a.model === b.model && a.dimensions === b.dimensions;

/**
 * The `vector_index` subsystem of GET /health: the active database's HNSW indexes (chunks, nodes,
 * templates) as they are, read from the open writer when this process has one, else from the last
 * checkpoint marker, never by loading an index. Degraded while an index lacks the configured
 * embedder's stored vectors or holds another model's (search falls back to keywords meanwhile);
 * not_configured only when vector search is switched off.
 */
export async function vectorIndexHealth(deps: VectorIndexHealthDeps): Promise<SubsystemHealth> {
  const settings = deps.settings();
  if (!settings.search.enable_vector_search)
    return { status: 'not_configured', message: 'vector search is switched off (search.enable_vector_search)' };
  const { name, db } = await deps.databases.current();
  const { identity } = await configuredIdentity(db, deps.embeddings, settings);
  const groups = await storedVectorGroups(db);
  const databaseDir = deps.databases.paths.databaseDir(name);
  const indexes = {} as Record<VectorKind, KindHealth>;
  for (const kind of vectorKinds) {
    const stored = groups
      .filter((group) => group.kind === kind && sameVectors(group, identity))
      .reduce((sum, group) => sum + Number(group.count), 0);
    const open = localStore(databaseDir, kind);
    const meta = await new VectorFiles(databaseDir, kind).readMeta();
    const held = open?.heldIdentity ?? meta?.identity ?? null;
    const indexed = open?.size ?? meta?.count ?? 0;
    const state: IndexState =
      held === null
        ? stored
          ? 'not_built'
          : 'empty'
        : sameVectors(held, identity)
          ? 'current'
          : indexed || stored
            ? 'stale'
            : 'empty';
    indexes[kind] = { state, indexed, stored, checkpointed_at: meta?.checkpointed_at ?? null };
  }
  const vectors = vectorKinds.reduce(
    (sum, kind) => sum + (indexes[kind].state === 'current' ? indexes[kind].indexed : 0),
    0,
  );
  const details = { database: name, model: identity.model, dimensions: identity.dimensions, vectors, indexes };
  const behind = vectorKinds.filter((kind) => indexes[kind].state === 'not_built' || indexes[kind].state === 'stale');
  if (behind.length) {
    return {
      status: 'degraded',
      message: `the ${behind.join(', ')} index(es) do not yet hold the vectors of ${describeIdentity(identity)}; they are rebuilt from the stored vectors`,
      details,
    };
  }
  return { status: 'ok', message: `${vectors} vector(s) indexed`, details };
}
