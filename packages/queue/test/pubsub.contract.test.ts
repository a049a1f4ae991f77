import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessPubSub, RedisPubSub, type PubSub } from '../src/index.ts';
import { PostgresPubSub } from '../src/postgres-pubsub.ts';
import { startPostgres, type TestPostgres } from '../../../tests/support/postgres.ts';
import { startRedis, type TestRedis } from '../../../tests/support/redis.ts';
import { sleep, untilHolds } from '../../../tests/support/wait.ts';

let redis: TestRedis;
let postgres: TestPostgres;
beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(() => Promise.all([redis.stop(), postgres.stop()]));

const adapters: [string, () => Promise<[PubSub, PubSub]>][] = [
  [
    'in-process',
    async () => {
      const shared = new InProcessPubSub();
      return [shared, shared];
    },
  ],
  ['redis', async () => [await RedisPubSub.connect(redis.url), await RedisPubSub.connect(redis.url)]],
  ['postgres', async () => [await PostgresPubSub.connect(postgres.url), await PostgresPubSub.connect(postgres.url)]],
];

describe.each(adapters)('pub/sub contract: %s', (_name, connect) => {
  it('delivers a message published by one side to a subscriber on the other', async () => {
    const [publisher, subscriber] = await connect();
    const received: string[] = [];
    const unsubscribe = await subscriber.subscribe('contract:a', (message) => received.push(message));
    await publisher.publish('contract:a', 'hello');
    await publisher.publish('contract:other', 'not for a');
    await untilHolds(
      () => received,
      (messages) => isDeepStrictEqual(messages, ['hello']),
      { what: 'the one message' },
    );
    await unsubscribe();
    await publisher.publish('contract:a', 'after unsubscribe');
    await sleep(100);
    expect(received).toEqual(['hello']);
    await publisher.close();
    if (subscriber !== publisher) await subscriber.close();
  });

  it('fans a message out to every subscriber and keeps order', async () => {
    const [publisher, subscriber] = await connect();
    const first: string[] = [];
    const second: string[] = [];
    await subscriber.subscribe('contract:b', (message) => first.push(message));
    await subscriber.subscribe('contract:b', (message) => second.push(message));
    for (const message of ['1', '2', '3']) await publisher.publish('contract:b', message);
    await untilHolds(
      () => [first, second],
      (both) =>
        isDeepStrictEqual(both, [
          ['1', '2', '3'],
          ['1', '2', '3'],
        ]),
      { what: 'all three messages at both handlers' },
    );
    await publisher.close();
    if (subscriber !== publisher) await subscriber.close();
  });
});
