import { EventEmitter } from 'node:events';

/** `{entity}.{action}` events of the graph: the sources workflow triggers listen to (docs/api-conventions.md, Events). */
export interface GraphEvent {
  source: 'node.create' | 'edge.create';
  database: string;
  payload: { entity_type: 'node' | 'edge'; entity_id: string };
  /** The writer embeds the nodes it created itself (extraction commit, CCX import): the seeded auto-embedding trigger has nothing to add. */
  embedsItself?: boolean;
}

/**
 * The internal event bus: graph writes publish here, the automation feature's triggers subscribe.
 * Listeners run after the write committed; a failing listener never fails the write.
 */
export class GraphEventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: GraphEvent): void {
    setImmediate(() => this.emitter.emit('event', event));
  }

  subscribe(listener: (event: GraphEvent) => void): () => void {
    const safe = (event: GraphEvent) => {
      try {
        listener(event);
      } catch {
        // a subscriber's failure is its own; the write already happened
      }
    };
    this.emitter.on('event', safe);
    return () => this.emitter.off('event', safe);
  }
}

/** node.create for every node and edge.create for every edge a bulk write created; such writers (commit, import) embed their nodes themselves. */
export function publishBulkCreations(
  bus: GraphEventBus,
  database: string,
  created: { nodes: string[]; edges: string[] },
): void {
  for (const id of created.nodes)
    bus.publish({
      source: 'node.create',
      database,
      payload: { entity_type: 'node', entity_id: id },
      embedsItself: true,
    });
  for (const id of created.edges)
    bus.publish({
      source: 'edge.create',
      database,
      payload: { entity_type: 'edge', entity_id: id },
      embedsItself: true,
    });
}
