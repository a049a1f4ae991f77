import type { Db } from '../storage/index.ts';

/** What the recovery scan did to one source (migration 0020): the status it found, what it queued again, why. */
export interface RecoveryEvent {
  sourceId: string;
  fromStatus: string;
  /** index_document, extract_chunk, finalize_extraction or settle_status. */
  action: string;
  /** stalled (no progress for the scan's limit) or orphaned (its task ended without doing the work). */
  reason: string;
  enqueued: number;
  detail?: string;
}

export interface RecoveryEventRow {
  id: number;
  source_id: string;
  attempt_at: string;
  from_status: string;
  action_taken: string;
  reason: string;
  enqueued_count: number;
  detail: string | null;
}

export async function recordRecoveryEvent(db: Db, event: RecoveryEvent): Promise<void> {
  await db('recovery_events').insert({
    source_id: event.sourceId,
    attempt_at: new Date().toISOString(),
    from_status: event.fromStatus,
    action_taken: event.action,
    reason: event.reason,
    enqueued_count: event.enqueued,
    detail: event.detail ?? null,
  });
}

/** A source's recovery events, newest first, one page of them and how many there are. */
export async function recoveryEvents(
  db: Db,
  sourceId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: RecoveryEventRow[]; total: number }> {
  const rows = (await db('recovery_events')
    .where({ source_id: sourceId })
    .orderBy('attempt_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .select()) as RecoveryEventRow[];
  const counted = (await db('recovery_events').where({ source_id: sourceId }).count({ n: '*' }).first()) as
    { n: number } | undefined;
  return { rows, total: Number(counted?.n ?? 0) };
}
