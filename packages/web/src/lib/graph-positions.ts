import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { api } from './api.ts';
import { markAllSaved, type KnowledgeGraph } from './graph-model.ts';

/** Positions go in batches of this many updates: one queued task each, never one request per node. */
const batchSize = 5_000;
const round = (value: number) => Math.round(value * 100) / 100;

/** Saves every node's position in batch updates, so the layout is there on the next visit; marks them saved. */
export async function saveAllPositions(graph: KnowledgeGraph): Promise<void> {
  const operations: { operation: 'update'; data: { id: string; position: { x: number; y: number } } }[] = [];
  graph.forEachNode((id, { x, y }) => {
    operations.push({ operation: 'update', data: { id, position: { x: round(x), y: round(y) } } });
  });
  for (let start = 0; start < operations.length; start += batchSize) {
    await api.call(nodeEndpoints.batch, { body: { operations: operations.slice(start, start + batchSize) } });
  }
  markAllSaved(graph);
}

/** Saves one node's position (after a drag). */
export async function saveNodePosition(graph: KnowledgeGraph, id: string): Promise<void> {
  const { x, y } = graph.getNodeAttributes(id);
  await api.call(nodeEndpoints.position, { params: { node_id: id }, body: { position: { x: round(x), y: round(y) } } });
  graph.setNodeAttribute(id, 'saved', true);
}
