import { createHash, randomBytes } from 'node:crypto';

export function newNodeId(): string {
  return `node_${randomBytes(12).toString('hex')}`;
}

export function newEdgeId(): string {
  return `edge_${randomBytes(12).toString('hex')}`;
}

export function newTemplateId(): string {
  return `tpl_${randomBytes(12).toString('hex')}`;
}

function sha(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 24);
}

/**
 * Node id of an extracted entity: content-addressed by type and normalised name, not by source, so the
 * same entity extracted from two sources is one node (with citations from both).
 */
export function entityNodeId(database: string, typeKey: string, nameKey: string): string {
  return `node_${sha(`${database}:entity:${typeKey}:${nameKey}`)}`;
}

/** Edge id of an extracted relationship: one edge per type between two nodes, whichever sources state it. */
export function relationshipEdgeId(
  database: string,
  typeKey: string,
  sourceNodeId: string,
  targetNodeId: string,
): string {
  return `edge_${sha(`${database}:relationship:${typeKey}:${sourceNodeId}:${targetNodeId}`)}`;
}
