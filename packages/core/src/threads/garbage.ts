import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

let collect: (() => void) | undefined;

/**
 * A full garbage collection, for a background thread that has just finished a large piece of work
 * (never on the thread serving the API). An idle thread allocates nothing, so V8 would keep the
 * garbage of a 50 MB document's preparation (about 600 MB) resident until the next document. `gc` is
 * exposed the way node documents for v8.setFlagsFromString: the flag applies to contexts created after it.
 */
export function collectGarbage(): void {
  if (isMainThread) return;
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
}
