import type { Knex } from 'knex';
import type { EdgeRow } from './edges/repo.ts';
import type { NodeRow } from './nodes/repo.ts';
import type { TemplateRow } from './templates/repo.ts';

/** Columns of graph_nodes the API does not show: the extraction's match key and flag, the CCX IRI, the degree triggers keep. */
interface NodeBookkeeping {
  name_key: string | null;
  extracted: number | boolean;
  ccx_iri: string | null;
  degree: number;
}

interface EdgeBookkeeping {
  extracted: number | boolean;
  ccx_iri: string | null;
}

/** A template's own vector (JSON float list) and the write sequence vector index readers follow. */
interface TemplateBookkeeping {
  embedding: string | null;
  embedding_model: string | null;
  embedding_dimensions: number | null;
  embedding_seq: number | null;
  extracted: number | boolean;
}

export interface SnapshotRow {
  id: number;
  payload_json: string;
  node_count: number;
  edge_count: number;
  generated_at: string;
}

/** `node_embeddings`: the source of truth of node vectors (float32 BLOBs); rows are replaced, never updated. */
export interface NodeEmbeddingRow {
  node_id: string;
  model: string;
  dimensions: number;
  vector: Buffer;
}

/** A row as stored; an insert names the required columns and may leave the rest to their defaults. */
type Stored<Row, Required extends keyof Row> = Knex.CompositeTableType<
  Row,
  Pick<Row, Required> & Partial<Row>,
  Partial<Row>
>;

/** The graph's tables (migrations 0001, 0002, 0004, 0005, 0011). */
declare module 'knex/types/tables.js' {
  interface Tables {
    graph_nodes: Stored<NodeRow & NodeBookkeeping, 'id' | 'template_id' | 'label' | 'created_at' | 'updated_at'>;
    graph_edges: Stored<
      EdgeRow & EdgeBookkeeping,
      'id' | 'template_id' | 'source_node_id' | 'target_node_id' | 'label' | 'created_at' | 'updated_at'
    >;
    graph_templates: Stored<
      TemplateRow & TemplateBookkeeping,
      'id' | 'name' | 'template_type' | 'created_at' | 'updated_at'
    >;
    graph_snapshots: SnapshotRow;
    node_sources: { node_id: string; source_id: string };
    edge_sources: { edge_id: string; source_id: string };
    template_sources: { template_id: string; source_id: string };
    node_embeddings: NodeEmbeddingRow;
  }
}
