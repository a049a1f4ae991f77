import { EventEmitter } from 'node:events';

/** `{entity}.{action}` events of the graph (spec Part C "Trigger event sources"). */
export interface GraphEvent {
  source: 'node.create' | 'edge.create';
  database: string;
  payload: { entity_type: 'node' | 'edge'; entity_id: string };
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
