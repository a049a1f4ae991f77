import type { Platform } from './create.ts';
import { joinDeployment } from './leadership/index.ts';
import { featureModules } from './modules.ts';

type Job = NonNullable<(typeof featureModules)[number]['background']>[number];

function startJobs(platform: Platform, jobs: Job[]) {
  const running = jobs.map((job) => ({ name: job.name, handle: job.start(platform) }));
  return {
    names: running.map((job) => job.name),
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

/**
 * Starts every module's background jobs in an API process. With a PostgreSQL server several API nodes
 * may serve one deployment: the jobs that act for all of it run only on the node holding the background
 * lease, and move to another when it dies (docs/decisions/0042); on SQLite the one process always leads.
 * Stopping waits for each job, in reverse order of starting, and gives the lease up.
 */
export function startBackgroundJobs(platform: Platform, service = 'cortex-api'): { stop(): Promise<void> } {
  const jobs = featureModules.flatMap((module) => module.background ?? []);
  const local = startJobs(
    platform,
    jobs.filter((job) => job.runsOn === 'node'),
  );
  const joined = joinDeployment(platform, service, () => {
    const leading = startJobs(
      platform,
      jobs.filter((job) => job.runsOn !== 'node'),
    );
    platform.logger.info(`background jobs started: ${[...local.names, ...leading.names].join(', ')}`);
    return leading;
  }).catch((error: unknown) => {
    platform.logger.error(`background jobs not started: ${String(error)}`);
    return undefined;
  });
  return {
    async stop() {
      await (await joined)?.stop();
      await local.stop();
    },
  };
}

/** In a worker: registers every module's task handlers (the platform registered only their lanes). */
export function registerTaskHandlers(platform: Platform): void {
  for (const module of featureModules) module.defineTasks?.(platform.operations, platform);
}
