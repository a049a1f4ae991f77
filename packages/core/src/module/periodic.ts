import type { BackgroundJob } from './contract.ts';

/**
 * A background job that runs `sweep` at start-up and then every `intervalMs`. Stopping waits for a run in
 * flight: a query issued after the database closed would hold the process.
 */
export function periodicJob<Host>(
  name: string,
  intervalMs: number,
  sweep: (host: Host) => Promise<void>,
): BackgroundJob<Host> {
  return {
    name,
    start(host) {
      let running = sweep(host);
      const timer = setInterval(() => (running = sweep(host)), intervalMs);
      timer.unref();
      return {
        stop: async () => {
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}
