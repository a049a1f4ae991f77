import { createClient } from 'redis';
import type { PubSub } from './pubsub.ts';

type RedisClient = ReturnType<typeof createClient>;

/** Pub/sub over Redis or Valkey: one connection publishes, a duplicate subscribes. */
export class RedisPubSub implements PubSub {
  private constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
  ) {}

  static async connect(url: string): Promise<RedisPubSub> {
    const publisher = createClient({ url, socket: { reconnectStrategy: (retries) => Math.min(retries * 100, 2000) } });
    publisher.on('error', () => undefined);
    const subscriber = publisher.duplicate();
    subscriber.on('error', () => undefined);
    await Promise.all([publisher.connect(), subscriber.connect()]);
    return new RedisPubSub(publisher, subscriber);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.publish(channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    const listener = (message: string) => handler(message);
    await this.subscriber.subscribe(channel, listener);
    return async () => {
      await this.subscriber.unsubscribe(channel, listener);
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }
}
