import type { QueueService } from '@rhizome/queue';
import type { Db } from '../storage/index.ts';
import { submitDatabaseTask } from '../tasks/index.ts';
import { resetProcessingState } from './processing-state.ts';
import { refuseFullReset, refuseWhileProcessing } from './refusal.ts';
import { resetKnowledgeOperation } from './tasks.ts';

export interface QueuedReset {
  task_id: string;
  status: 'queued';
  operation_type: 'knowledge_reset' | 'full_reset';
  message: string;
}

/** The scoped resets of one database that are not another module's own (chats, workflows, the queue). */
export class ResetService {
  constructor(private readonly deps: { db: Db; database: string; queue: QueueService }) {}

  processingState() {
    return resetProcessingState(this.deps.db);
  }

  /**
   * Queues the knowledge wipe (`everything`: the database as new); refused at once while sources are
   * processed, and for `everything` while chats are answered or workflows run.
   */
  async queueKnowledge(everything: boolean): Promise<QueuedReset> {
    if (everything) await refuseFullReset(this.deps.db);
    else await refuseWhileProcessing(this.deps.db, 'the knowledge');
    const task = await submitDatabaseTask(this.deps.queue, this.deps.database, resetKnowledgeOperation, { everything });
    return {
      task_id: task.task_id,
      status: 'queued',
      operation_type: everything ? 'full_reset' : 'knowledge_reset',
      message: everything
        ? `Reset of everything in '${this.deps.database}' queued; results at /queue/tasks/${task.task_id}/result`
        : `Reset of the knowledge of '${this.deps.database}' queued; results at /queue/tasks/${task.task_id}/result`,
    };
  }
}
