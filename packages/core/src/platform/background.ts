import type { Platform } from './create.ts';
import { featureModules } from './modules.ts';

/**
 * Starts every module's background jobs (in the API process: a deployment runs exactly one; see
 * docs/decisions/0028). Stopping waits for each job, in reverse order of starting.
 */
export function startBackgroundJobs(platform: Platform): { stop(): Promise<void> } {
  const running = featureModules
    .flatMap((module) => module.background ?? [])
    .map((job) => ({ name: job.name, handle: job.start(platform) }));
  platform.logger.info(`background jobs started: ${running.map((job) => job.name).join(', ')}`);
  return {
    async stop() {
      for (const job of running.reverse()) {
        await job.handle
          .stop()
          .catch((error: unknown) =>
            platform.logger.warning(`background job ${job.name} did not stop cleanly: ${String(error)}`),
          );
      }
    },
  };
}

/** In a worker: registers every module's task handlers (the platform registered only their lanes). */
export function registerTaskHandlers(platform: Platform): void {
  for (const module of featureModules) module.defineTasks?.(platform.operations, platform);
}
