import { EventEmitter } from 'node:events';
import { OperationRegistry } from '../../src/registry.ts';
import { sleep } from '../../../../tests/support/wait.ts';

/** Operations the contract suite and its child worker share. */
export function testRegistry(): OperationRegistry {
  const registry = new OperationRegistry();
  const block = async ({ checkCancelled }: { checkCancelled(): Promise<void> }) => {
    for (;;) {
      await checkCancelled();
      await sleep(20);
    }
  };
  registry.define('test.block', { queue: 'operations' }, block);
  registry.define('test.block_once', { queue: 'operations', retryOnCrash: false }, block);
  registry.define('test.quick', { queue: 'operations' }, async () => ({ done: true }));
  // A resource the handler opened fails later with nobody listening; the handler itself waits on.
  registry.define('test.escape', { queue: 'operations' }, async (context) => {
    const resource = new EventEmitter();
    setTimeout(() => resource.emit('error', new Error('write after the stream was destroyed')), 30);
    await block(context);
  });
  registry.define('test.throw_in_callback', { queue: 'operations' }, async (context) => {
    setTimeout(() => {
      throw new Error('thrown in a timer callback');
    }, 30);
    await block(context);
  });
  return registry;
}
