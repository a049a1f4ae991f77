import type { PubSub } from '@rhizome/queue';

/**
 * A message from one process to all the others of a deployment (each process ignores its own):
 * settings changed, a database file was replaced.
 */
export class Broadcast<T extends object> {
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly pubsub: PubSub,
    private readonly channel: string,
    private readonly origin: string,
  ) {}

  async listen(handler: (message: T) => void | Promise<void>): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(this.channel, (raw) => {
      const { origin, message } = JSON.parse(raw) as { origin: string; message: T };
      if (origin !== this.origin) void handler(message);
    });
  }

  announce(message: T): Promise<void> {
    return this.pubsub.publish(this.channel, JSON.stringify({ origin: this.origin, message }));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }
}
