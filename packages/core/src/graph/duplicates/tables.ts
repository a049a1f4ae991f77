/** A pair a person said is not one entity (migration 0013). */
export interface DuplicateRejectionRow {
  pair_id: string;
  node_a_id: string;
  node_b_id: string;
  rejected_at: string;
}

/** A node merge as it can be undone: JSON of the rows it changed, before and after (migration 0013). */
export interface NodeMergeRow {
  id: string;
  kept_node_id: string;
  kept_label: string;
  /** JSON `{id, label}[]` of the nodes merged in. */
  merged: string;
  before: string;
  after: string;
  /** JSON of the citation rows the merge changed or removed, as they were; null for a merge journalled before 0017. */
  citations: string | null;
  merged_at: string;
  expires_at: string;
  undone_at: string | null;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    duplicate_rejections: DuplicateRejectionRow;
    node_merges: NodeMergeRow;
  }
}
