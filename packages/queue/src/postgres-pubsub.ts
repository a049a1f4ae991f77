import pg from 'pg';
import type { PubSub } from './pubsub.ts';

/**
 * Pub/sub over a PostgreSQL server's LISTEN/NOTIFY, for deployments whose processes share a server but no
 * Redis: one pooled connection publishes, one connection listens and, when the server drops it, is
 * opened again and re-subscribes every channel. A message holds at most 8000 bytes (NOTIFY's limit).
 */
export class PostgresPubSub implements PubSub {
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private listener: Promise<pg.Client> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly publisher: pg.Pool,
  ) {}

  static async connect(url: string): Promise<PostgresPubSub> {
    const publisher = new pg.Pool({ connectionString: url, max: 2 });
    publisher.on('error', () => undefined);
    const pubsub = new PostgresPubSub(url, publisher);
    await pubsub.listening();
    return pubsub;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.query('SELECT pg_notify($1, $2)', [channel, message]);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      await (await this.listening()).query(`LISTEN ${quote(channel)}`);
    }
    handlers.add(handler);
    return async () => {
      handlers.delete(handler);
      if (handlers.size || this.handlers.get(channel) !== handlers) return;
      this.handlers.delete(channel);
      await (await this.listening()).query(`UNLISTEN ${quote(channel)}`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const listener = await this.listener?.catch(() => undefined);
    await Promise.allSettled([listener?.end(), this.publisher.end()]);
  }

  /** The listening connection, opened (and its channels listened to) when there is none. */
  private listening(): Promise<pg.Client> {
    this.listener ??= this.openListener();
    return this.listener;
  }

  private async openListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    const reopen = () => {
      if (this.closed || this.retry) return;
      this.listener = undefined;
      void client.end().catch(() => undefined);
      // Reopened a second later, so a server that is back is listened to again without a caller asking.
      this.retry = setTimeout(() => {
        this.retry = undefined;
        if (!this.closed) void this.listening().catch(reopen);
      }, 1000);
    };
    client.on('error', reopen);
    client.on('end', reopen);
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quote(channel)}`);
    return client;
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
