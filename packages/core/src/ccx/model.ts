/**
 * What a package holds once read, whichever CCX version carried it: the import works on this shape
 * only. `key`s are the package's own ids (what its references use); `iri`s are stable identities that
 * survive re-export, by which a merge import recognises what it imported before.
 */

export interface CcxTemplate {
  key: string;
  iri: string;
  name: string;
  template_type: 'node' | 'edge';
  description: string | null;
  icon: string | null;
  color: string | null;
  properties: unknown[];
  source_key: string | null;
}

export interface CcxNode {
  key: string;
  iri: string;
  label: string;
  /** A template of the package or, for system templates, of the target database. */
  template_key: string | null;
  /** The type's name when no template id is given (CCX 3.0 `@type`). */
  template_name: string | null;
  properties: Record<string, unknown>;
  position: { x: number; y: number } | null;
  embedding: number[] | null;
  /** Sources the node came from (package source keys). */
  source_keys: string[];
  primary_source_key: string | null;
  extracted: boolean;
  name_key: string | null;
  /** Entity tags (knowledge.jsonld `nodes[].tags`); absent in packages written before entities had tags. */
  tags?: CcxTag[];
  created_at: string | null;
  updated_at: string | null;
}

export interface CcxEdge {
  key: string;
  iri: string;
  template_key: string | null;
  source_node_key: string;
  target_node_key: string;
  label: string;
  properties: Record<string, unknown>;
  source_keys: string[];
  primary_source_key: string | null;
  extracted: boolean;
  created_at: string | null;
  updated_at: string | null;
}

export interface CcxVector {
  model: string;
  dimensions: number;
  values: Float32Array;
}

export interface CcxChunk {
  key: string;
  chunk_index: number;
  content: string;
  page_number: number | null;
  section: string | null;
  metadata: Record<string, unknown> | null;
  start_offset: number | null;
  end_offset: number | null;
  created_at: string | null;
  embedding: CcxVector | null;
}

export interface CcxCitation {
  /** The cited node (entity citations) or edge (relationship citations), as a package key. */
  target_key: string;
  chunk_key: string | null;
  confidence: number;
  extraction_method: string;
  context_snippet: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string | null;
}

export interface CcxTag {
  name: string;
  color: string | null;
  description: string | null;
}

export interface CcxSource {
  key: string;
  iri: string;
  title: string | null;
  filename: string | null;
  source_type: string;
  origin_url: string | null;
  status: string;
  extraction_domain: string | null;
  metadata: Record<string, unknown>;
  created_at: string | null;
  updated_at: string | null;
  chunks: CcxChunk[];
  citations: CcxCitation[];
  relationship_citations: CcxCitation[];
  tags: CcxTag[];
}

/** An event trigger as `workflows.jsonld` carries it (TriggerResponse's fields); `workflow_id` is the package's id of its workflow. */
export interface CcxTrigger {
  id: string;
  name: string;
  event_source: string;
  filters: Record<string, unknown>;
  workflow_id: string;
  workflow_inputs: Record<string, unknown> | null;
  enabled: boolean;
  priority: number;
}

export interface CcxPackageInfo {
  ccx_version: string;
  name: string;
  package_version: string;
  license: string | null;
}

export interface CcxContent {
  info: CcxPackageInfo;
  templates: CcxTemplate[];
  nodes: CcxNode[];
  edges: CcxEdge[];
  sources: CcxSource[];
  /** Workflow definitions as the automation feature exports them. */
  workflows: Record<string, unknown>[];
  /** Triggers of those workflows (or of system workflows the target database has). */
  triggers: CcxTrigger[];
  /** The model and dimensions of the node vectors the package carries, when it carries any. */
  node_vector_model: { model: string; dimensions: number } | null;
  /** Custom domain definitions the package carries (`domains.json`), checked when imported. */
  domains?: unknown[];
  warnings: string[];
}

/** Datetimes as stored here (ISO 8601, `Z`): CCX 2.0 writes `2026-11-21 19:32:41.741462+00:00`, hand-made packages the `T` form. */
const storedForm = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  if (storedForm.test(value)) return value;
  const parsed = new Date(
    value
      .trim()
      .replace(' ', 'T')
      .replace(/(\.\d{3})\d+/, '$1'),
  );
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
}

export function objectOrNull(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
