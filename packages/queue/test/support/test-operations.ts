import { OperationRegistry } from '../../src/registry.ts';

/** Operations the contract suite and its child worker share. */
export function testRegistry(): OperationRegistry {
  const registry = new OperationRegistry();
  registry.define('test.block', { queue: 'operations' }, async ({ checkCancelled }) => {
    for (;;) {
      await checkCancelled();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  registry.define('test.block_once', { queue: 'operations', retryOnCrash: false }, async ({ checkCancelled }) => {
    for (;;) {
      await checkCancelled();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return registry;
}
