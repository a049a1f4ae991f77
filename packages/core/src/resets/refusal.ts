import { Conflict } from '@rhizome/contracts/errors';
import { countOf } from '@rhizome/contracts/wording';
import { processingSourceIds } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { runningTasks } from './read-model.ts';

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

/**
 * The full reset deletes chats and workflows too: while a chat is being answered or a workflow run is
 * queued or running it is refused with 409 `TASKS_RUNNING`, naming them (at most 100 of each). Cancelling
 * them (POST /chats/{id}/cancel, /workflows/executions/{id}/cancel) or letting them finish makes it possible.
 */
export async function refuseWhileTasksRun(db: Db): Promise<void> {
  const running = await runningTasks(db);
  const busy = [
    ...(running.chat_ids.length ? [countOf(running.chat_ids.length, 'chat answer')] : []),
    ...(running.execution_ids.length ? [countOf(running.execution_ids.length, 'workflow run')] : []),
  ];
  if (!busy.length) return;
  throw new Conflict(
    `Cannot reset the database with ${busy.join(' and ')} in progress: cancel them or let them finish first`,
    { code: 'TASKS_RUNNING', ...running },
  );
}

/** Both refusals of the full reset, the sources first. */
export async function refuseFullReset(db: Db): Promise<void> {
  await refuseWhileProcessing(db, 'the database');
  await refuseWhileTasksRun(db);
}
