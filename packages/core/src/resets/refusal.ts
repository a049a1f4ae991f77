import { Conflict } from '@rhizome/contracts/errors';
import { processingSourceIds } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';

/**
 * A reset never wipes what a queued or running task is still writing: while any source is being indexed,
 * described, extracted or committed (or waits in the queue for it) it is refused with 409, naming them.
 * Stopping them first (POST /sources/{id}/stop) or letting them finish makes the reset possible.
 */
export async function refuseWhileProcessing(db: Db, scope: string): Promise<void> {
  const busy = await processingSourceIds(db);
  if (!busy.length) return;
  throw new Conflict(
    `Cannot reset ${scope} while ${busy.length} source(s) are being processed: stop them or let them finish first`,
    { code: 'SOURCES_PROCESSING', source_ids: busy.slice(0, 100) },
  );
}
