import { isDeepStrictEqual } from 'node:util';
import type { Settings } from '@rhizome/contracts/settings';
import { transcriptionUsable } from '../media/index.ts';
import type { BackgroundJob, DatabaseHandle } from '../module/index.ts';
import type { Db } from '../storage/index.ts';
import type { SourcesHost } from './module.ts';
import type { SourceService } from './service.ts';

/** The formats read by transcribing their speech. */
const recordedFormats = ['audio', 'video'];
/**
 * How the recording loader's refusals read when no transcriber could be used: each names the
 * `transcription.*` setting to change, or says the recording "could not be transcribed".
 */
const transcriptionRefusal = /transcription\.(provider|api_base)|could not be transcribed/;

/** Recordings whose indexing ended in `error` because no transcriber could be used. */
export async function untranscribedSources(db: Db): Promise<string[]> {
  const rows = (await db('sources')
    .where({ status: 'error', error_stage: 'indexing' })
    .whereIn('file_type', recordedFormats)
    .select('id', 'error_message')) as { id: string; error_message: string | null }[];
  return rows.filter((row) => transcriptionRefusal.test(row.error_message ?? '')).map((row) => row.id);
}

/** Puts a source in `error` back to `pending` and queues its indexing; false when it left `error` meanwhile. */
async function requeue(service: SourceService, db: Db, id: string): Promise<boolean> {
  const claimed = await db('sources').where({ id, status: 'error' }).update({
    status: 'pending',
    error_stage: null,
    error_message: null,
    current_step: 'queued',
    step_description: 'Transcription is configured now: indexing queued again',
    updated_at: new Date().toISOString(),
  });
  if (!claimed) return false;
  await service.queueIndexing(id);
  return true;
}

/**
 * When the `transcription.*` settings change and name a transcriber that can be used, the recordings of
 * every database that failed for want of one are indexed again, once per change. A recording that fails
 * again stays in `error` until the next change.
 */
export function transcriptionRetryJob(
  serviceFor: (host: SourcesHost, database: DatabaseHandle) => SourceService,
): BackgroundJob<SourcesHost> {
  return {
    name: 'transcription-retry',
    start(host) {
      let running: Promise<void> = Promise.resolve();
      const retryAll = async (settings: Settings) => {
        if (!(await transcriptionUsable(settings.transcription))) return;
        for (const { name } of host.databases.list()) {
          try {
            const db = await host.databases.connection(name);
            const service = serviceFor(host, { name, db });
            let queued = 0;
            for (const id of await untranscribedSources(db)) if (await requeue(service, db, id)) queued += 1;
            if (queued)
              host.logger.info(
                `database '${name}': ${queued} recording(s) queued again now transcription is configured`,
              );
          } catch (error) {
            host.logger.warning(`transcription retry in '${name}': ${String(error)}`);
          }
        }
      };
      const unsubscribe = host.settings.onChange((next, prev) => {
        if (isDeepStrictEqual(next.transcription, prev.transcription)) return;
        // One change at a time, so two quick changes never queue the same source twice.
        running = running
          .then(() => retryAll(next))
          .catch((error: unknown) => void host.logger.warning(`transcription retry: ${String(error)}`));
      });
      return {
        stop: async () => {
          unsubscribe();
          await running;
        },
      };
    },
  };
}
