import type { Logger } from '../logging.ts';
import type { SourceService } from './service.ts';

/** A source whose indexing shows no progress for this long is stalled (docs/api-conventions.md#stalled-sources). */
const stalledAfterMs = 600_000;
const maxRecoveryAttempts = 10;
/** A source showing extraction in progress with no activity for this long is checked for an extraction with no work left. */
const idleExtractionAfterMs = 60_000;

/** What the recovery scan asks of extraction (built on sources, so handed in). */
export interface IdleExtractions {
  finishIdle(idleMs: number): Promise<{ sourceId: string; outcome: string }[]>;
  /** Keeps what the scan did to a source, for its recovery events. */
  recordRecovery(event: {
    sourceId: string;
    fromStatus: string;
    action: string;
    reason: string;
    enqueued: number;
    detail?: string;
  }): Promise<void>;
}

/**
 * One recovery scan of a database: re-queues the unfinished indexing of stalled sources, at most ten times
 * each, and finishes the sources whose extraction has no work left.
 */
export async function recoverSources(
  sources: SourceService,
  extraction: IdleExtractions,
  logger: Pick<Logger, 'info'>,
): Promise<void> {
  for (const id of await sources.stalled(stalledAfterMs)) {
    const { status } = await sources.require(id);
    if (await sources.recover(id, { maxAttempts: maxRecoveryAttempts })) {
      logger.info(`source ${id}: stalled indexing queued again`);
      await extraction.recordRecovery({
        sourceId: id,
        fromStatus: status,
        action: 'index_document',
        reason: 'stalled',
        enqueued: 1,
        detail: 'indexing queued again',
      });
    }
  }
  for (const { sourceId, outcome } of await extraction.finishIdle(idleExtractionAfterMs)) {
    logger.info(`source ${sourceId}: extraction with no work left finished (${outcome})`);
  }
}
