import { describe, expect, it } from 'vitest';
import { sleep } from '../../../tests/support/wait.ts';
import { SerialQueue } from '../src/serial.ts';

describe('SerialQueue', () => {
  it('runs work one piece at a time in the order given, a failure reaching only its caller', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const piece = (name: string, ms: number, fail = false) =>
      queue.run(async () => {
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([piece('a', 20), piece('b', 1, true), piece('c', 1)]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
