import { ErrorCode, Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { QueueName } from '../task.ts';

/**
 * bullmq runs lower priority numbers first and FIFO within one number, but runs priority 0 (no
 * priority) before every prioritized job; the spec's 0-100 (higher first) therefore maps to 101-1.
 */
export function bullPriority(priority: number): number {
  return 101 - priority;
}

/**
 * The lock token that makes bullmq skip its lock check. Who owns a claim is decided by our task hash
 * (status `running` under a worker id, changed only by guarded scripts), so ending or parking a job
 * after that guard passed must not also depend on bullmq's lock, which nobody renews.
 */
const hashGuarded = '0';

const jobOptions = { removeOnComplete: true, removeOnFail: true };

export interface FetchedJob {
  id: string;
  token: string;
}

/**
 * One lane on bullmq: a Queue to add jobs and a Worker used only for manual fetching (no processor,
 * never run, so bullmq's stalled checker and lock renewal never start). A job's id is its task id
 * and it carries no data: the task hash holds everything the spec shows.
 */
export class Lane {
  private tokens = 0;

  private constructor(
    private readonly queue: Queue,
    private readonly worker: Worker,
    private readonly tokenBase: string,
  ) {}

  /** `globalLimit` caps the lane's active jobs across every process (bullmq global concurrency). */
  static async open(client: Redis, name: QueueName, prefix: string, tokenBase: string, globalLimit: number | undefined): Promise<Lane> {
    const queue = new Queue(name, { connection: client, prefix });
    const worker = new Worker(name, null, { connection: client, prefix, autorun: false });
    const lane = new Lane(queue, worker, tokenBase);
    // Errors surface on the calls that hit them; unhandled 'error' events would crash the process.
    queue.on('error', () => undefined);
    worker.on('error', () => undefined);
    try {
      await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
      if (globalLimit !== undefined) await queue.setGlobalConcurrency(globalLimit);
    } catch (error) {
      await lane.close();
      throw error;
    }
    return lane;
  }

  async add(tasks: { taskId: string; operation: string; priority: number }[]): Promise<void> {
    await this.queue.addBulk(
      tasks.map((task) => ({ name: task.operation, data: {}, opts: { ...jobOptions, jobId: task.taskId, priority: bullPriority(task.priority) } })),
    );
  }

  /** Moves up to `count` jobs to active, best first; fewer when the lane runs dry or hits its global limit. */
  async fetch(count: number): Promise<FetchedJob[]> {
    const tokens = Array.from({ length: count }, () => `${this.tokenBase}:${++this.tokens}`);
    // The backend's fetch, not Worker.getNextJob: we need the id only, not a Job object built from it.
    const backend = this.worker.getBackend();
    const fetched = await Promise.all(tokens.map((token) => backend.moveToActive(token)));
    return fetched.flatMap(([, id], index) => (id ? [{ id: String(id), token: tokens[index] }] : []));
  }

  /** Ends an active job and deletes it. Already gone or not active: nothing to do. */
  async finish(taskId: string, outcome: 'completed' | 'failed', token = hashGuarded): Promise<void> {
    const job = new Job(this.worker, 'task', {}, jobOptions, taskId);
    const backend = this.worker.getBackend();
    await ignoreGone(
      outcome === 'completed'
        ? backend.moveToCompleted(job, null, true, token, false)
        : backend.moveToFailed(job, 'ended', true, token, false),
    );
  }

  /** Parks an active job in bullmq's delayed set; it returns to the lane after `delayMs` (real time). */
  async delay(taskId: string, delayMs: number, token = hashGuarded): Promise<void> {
    await ignoreGone(this.worker.getBackend().moveToDelayed(taskId, Date.now(), Math.max(0, Math.round(delayMs)), token));
  }

  /** Makes delayed jobs due now; jobs no longer delayed are left alone. */
  async promote(taskIds: string[]): Promise<void> {
    const backend = this.worker.getBackend();
    await Promise.all(taskIds.map((taskId) => ignoreGone(backend.promote(taskId))));
  }

  /**
   * Deletes waiting or delayed jobs. bullmq keeps a job whose lock key still exists; such a job is
   * dropped by the claim that fetches it, since its task is no longer queued.
   */
  async remove(taskIds: string[]): Promise<void> {
    const backend = this.worker.getBackend();
    await Promise.all(taskIds.map((taskId) => ignoreGone(backend.remove(taskId, false))));
  }

  /** The lane's active jobs with the time they were fetched (real clock). */
  async active(): Promise<{ id: string; fetchedAt: number }[]> {
    const jobs = await this.queue.getActive(0, 999);
    return jobs.flatMap((job) => (job.id ? [{ id: job.id, fetchedAt: job.processedOn ?? 0 }] : []));
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.worker.close(true), this.queue.close()]);
  }
}

async function ignoreGone(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== ErrorCode.JobNotExist && code !== ErrorCode.JobNotInState) throw error;
  }
}
