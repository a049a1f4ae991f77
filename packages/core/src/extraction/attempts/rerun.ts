import type { ChatProvider, Settings } from '@rhizome/contracts/settings';
import { BadInput, Conflict, NotFound } from '@rhizome/contracts/errors';
import type { QueueService } from '@rhizome/queue';
import type { ReadinessGate } from '../../providers/index.ts';
import { getSource, updateSource } from '../../sources/index.ts';
import type { Db } from '../../storage/index.ts';
import {
  getGroup,
  getJob,
  latestJob,
  moveGroup,
  moveJob,
  openGroupStatuses,
  queueGroup,
  type JobRow,
  type ModelChoice,
} from '../jobs.ts';

export interface RerunDeps {
  db: Db;
  database: string;
  queue: QueueService;
  priority: number;
  readiness: Pick<ReadinessGate, 'assertReady'>;
  /** The current LLM settings: a provider a re-run names must be usable under them. */
  llm: () => Settings['llm'];
}

/** Refuses (400) a provider the settings do not make usable: a cloud one without its key, local servers with none enabled. */
function assertUsable(llm: Settings['llm'], provider: ChatProvider): void {
  const keys = { openai: llm.openai_api_key, anthropic: llm.anthropic_api_key, gemini: llm.gemini_api_key };
  const problem =
    provider === 'localllm'
      ? llm.localllm_instances.some((instance) => instance.enabled)
        ? null
        : 'no local model server is enabled (llm.localllm_instances)'
      : provider === 'builtin' || keys[provider]
        ? null
        : `no API key is set for ${provider} (llm.${provider}_api_key)`;
  if (problem) throw BadInput.field(`Cannot re-run with ${provider}: ${problem}`, 'provider');
}

/** " with openai gpt-4.1", " with qwen3:14b" or nothing. */
function describeChoice({ provider, model }: ModelChoice): string {
  const named = [provider, model].filter(Boolean).join(' ');
  return named ? ` with ${named}` : '';
}

export interface QueuedRerun {
  chunk_index: number;
  queue_task_id: string;
  attempt_number: number;
}

/** Job states a re-run reopens: a finished run (its result is replaced at the next commit) or one still extracting. */
const reopenable: JobRow['status'][] = ['completed', 'failed', 'queued', 'running'];

/**
 * Runs some groups of a source's current extraction again (optionally with another provider or model): the groups
 * go back to pending in their job, the job to running, the source to extracting. When they end, the job
 * is finalised and committed as any run: the other groups' harvests stay as they were, and the commit
 * replaces the source's contribution with the result (stable node, edge and citation ids, so only what
 * the re-run groups changed differs). 404 for an unknown source, run or group; 409 while the run
 * finalises or commits, for a group still open, or when another request reopened it first.
 */
export async function rerunGroups(
  deps: RerunDeps,
  sourceId: string,
  groupIndexes: readonly number[],
  choice: ModelChoice = {},
): Promise<{ job: JobRow; reruns: QueuedRerun[] }> {
  const { db } = deps;
  const source = await getSource(db, sourceId);
  if (!source) throw NotFound.resource('Source', sourceId);
  const job = source.extraction_job_id ? await getJob(db, source.extraction_job_id) : await latestJob(db, sourceId);
  if (!job) throw NotFound.resource('Extraction job', sourceId);
  if (!reopenable.includes(job.status) || source.status === 'committing' || source.status === 'mcp_extracting')
    throw new Conflict(
      `Source '${sourceId}' cannot re-run chunks now: its extraction is ${job.status} and the source ${source.status}`,
      { job_status: job.status, source_status: source.status },
    );
  const indexes = [...new Set(groupIndexes)].sort((a, b) => a - b);
  for (const index of indexes) {
    const group = await getGroup(db, job.id, index);
    if (!group) throw NotFound.resource('Chunk', String(index));
    if (openGroupStatuses.includes(group.status))
      throw new Conflict(`Chunk ${index} of source '${sourceId}' is already ${group.status}`, { chunk_index: index });
  }
  // Another provider is checked as such; the configured one goes through the readiness gate.
  if (choice.provider) assertUsable(deps.llm(), choice.provider);
  else await deps.readiness.assertReady('extraction');
  const now = new Date().toISOString();
  await db.transaction(async (trx) => {
    if (!(await moveJob(trx, job.id, reopenable, { status: 'running', completed_at: null, error_message: null })))
      throw new Conflict(`The extraction of source '${sourceId}' changed meanwhile`);
    for (const index of indexes) {
      const reopened = await moveGroup(trx, job.id, index, ['completed', 'failed', 'cancelled'], {
        status: 'pending',
        task_id: null,
        error_message: null,
        completed_at: null,
      });
      if (!reopened) throw new Conflict(`Chunk ${index} of source '${sourceId}' was re-run by another request`);
    }
    await updateSource(trx, sourceId, {
      status: 'extracting',
      current_step: 'extracting',
      error_stage: null,
      error_message: null,
      step_description: `Re-running ${indexes.length === 1 ? `chunk ${indexes[0]}` : `${indexes.length} chunks`}${describeChoice(choice)}`,
      last_activity_at: now,
    });
  });
  const reopenedJob = { ...job, status: 'running' as const };
  const reruns: QueuedRerun[] = [];
  for (const index of indexes) {
    // Counted before the task is queued: it may finish (and add its attempt) before this returns.
    const previous = (await db('extraction_attempts')
      .where({ source_id: sourceId, group_index: index })
      .max({ n: 'attempt_number' })
      .first()) as { n: number | null } | undefined;
    const taskId = await queueGroup(db, deps.queue, deps.database, reopenedJob, index, deps.priority, choice);
    reruns.push({ chunk_index: index, queue_task_id: taskId, attempt_number: (previous?.n ?? 0) + 1 });
  }
  return { job: reopenedJob, reruns };
}
