import { NotFound } from '@rhizome/contracts/errors';
import type { LlmMetrics } from '../../providers/index.ts';
import { domainRegistryFor, getSource } from '../../sources/index.ts';
import type { Db } from '../../storage/index.ts';
import { entityPrompt, relationshipPrompt, SYSTEM_PROMPT } from '../harvest/prompts.ts';
import { getJob, latestJob, type JobRow } from '../jobs.ts';
import { decodeCalls, promptSections } from './prompts.ts';
import type { DroppedItem } from './recorder.ts';
import { getAttempt, groupAttempts, latestAttemptsOf, type AttemptRow } from './store.ts';
import { recoveryEvents } from '../recovery-events.ts';

export interface HistoryDeps {
  db: Db;
  database: string;
  metrics?: Pick<LlmMetrics, 'callsOf' | 'totals'>;
  /** The extraction model's context window in tokens (utilisation of each group). */
  contextWindow(): number;
}

const parse = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/** One attempt as the API shows it: the summary plus the prompts, raw answers, parsed and dropped items. */
function attemptDetail(row: AttemptRow, sections: readonly string[] | undefined) {
  const { calls, parsed, dropped, ...summary } = row;
  const recorded = decodeCalls(calls, sections);
  const items = parse<{ entities: unknown[]; relationships: unknown[] }>(parsed, { entities: [], relationships: [] });
  return {
    ...summary,
    calls: recorded.map((call) => ({
      pass: call.pass,
      system_prompt: call.system,
      user_prompt: call.user,
      raw_output: call.output,
      finish_reason: call.finishReason,
      model: call.model,
      input_tokens: call.inputTokens,
      output_tokens: call.outputTokens,
      duration_ms: call.durationMs,
      tripped_by: call.trippedBy,
    })),
    raw_entities: items.entities,
    raw_relationships: items.relationships,
    dropped: parse<DroppedItem[]>(dropped, []),
  };
}

const stats = (values: number[]) =>
  values.length === 0
    ? { min: 0, max: 0, avg: 0 }
    : {
        min: Math.min(...values),
        max: Math.max(...values),
        avg: Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10,
      };

/**
 * What the source page reads about a source's extraction: each group's attempts, the filtering log,
 * aggregate statistics with the prompts the domain gives, chart points, the model calls and recovery events.
 */
export class ExtractionHistory {
  constructor(private readonly deps: HistoryDeps) {}

  private async source(sourceId: string) {
    const source = await getSource(this.deps.db, sourceId);
    if (!source) throw NotFound.resource('Source', sourceId);
    return source;
  }

  private async job(sourceId: string): Promise<JobRow | undefined> {
    const source = await this.source(sourceId);
    return source.extraction_job_id
      ? getJob(this.deps.db, source.extraction_job_id)
      : latestJob(this.deps.db, sourceId);
  }

  async attempts(sourceId: string, groupIndex: number) {
    await this.source(sourceId);
    return groupAttempts(this.deps.db, sourceId, groupIndex);
  }

  async attempt(sourceId: string, groupIndex: number, attemptId: string) {
    await this.source(sourceId);
    const row = await getAttempt(this.deps.db, sourceId, attemptId);
    if (!row || row.group_index !== groupIndex) throw NotFound.resource('Attempt', attemptId);
    return attemptDetail(row, await promptSections(this.deps.db, row.job_id));
  }

  /** The latest attempt of each group of the current run. */
  private async latest(sourceId: string) {
    const job = await this.job(sourceId);
    return job ? { job, attempts: await latestAttemptsOf(this.deps.db, job.id) } : undefined;
  }

  /** Everything dropped on the way to the graph: per group (latest attempt) and source-wide at finalisation. 404 without a run. */
  async filteringLog(sourceId: string) {
    const latest = await this.latest(sourceId);
    if (!latest) throw NotFound.resource('Extraction job', sourceId);
    const { job, attempts } = latest;
    const byStage: Record<string, number> = {};
    const groups = attempts.map((attempt) => {
      const dropped = parse<DroppedItem[]>(attempt.dropped, []);
      for (const item of dropped) byStage[item.stage] = (byStage[item.stage] ?? 0) + 1;
      return {
        chunk_index: attempt.group_index,
        attempt_id: attempt.id,
        first_chunk_index: attempt.first_chunk_index,
        last_chunk_index: attempt.last_chunk_index,
        dropped_count: attempt.dropped_count,
        dropped,
      };
    });
    const jobStats = parse<{ finalize?: Record<string, number> } | null>(job.stats, null);
    return {
      source_id: sourceId,
      job_id: job.id,
      by_stage: byStage,
      groups: groups.filter((group) => group.dropped_count > 0),
      finalize: jobStats?.finalize ?? null,
    };
  }

  /** Aggregates over the current run's latest attempts, and the domain's prompts (read-only). 404 without a run. */
  async stats(sourceId: string) {
    const latest = await this.latest(sourceId);
    if (!latest) throw NotFound.resource('Extraction job', sourceId);
    const { job, attempts } = latest;
    const contextWindow = this.deps.contextWindow();
    const retries = (await this.deps
      .db('extraction_attempts')
      .where({ job_id: job.id })
      .groupBy('group_index')
      .select('group_index')
      .count({ n: '*' })) as { n: number }[];
    const dropped = attempts.flatMap((attempt) => parse<DroppedItem[]>(attempt.dropped, []));
    const input = stats(attempts.map((attempt) => attempt.input_tokens));
    const output = stats(attempts.map((attempt) => attempt.output_tokens));
    const total = stats(attempts.map((attempt) => attempt.input_tokens + attempt.output_tokens));
    const utilization = stats(
      attempts.map((attempt) =>
        contextWindow > 0 ? Math.round((attempt.input_tokens / contextWindow) * 1000) / 1000 : 0,
      ),
    );
    const duration = stats(attempts.map((attempt) => attempt.llm_duration_ms));
    const entities = attempts.reduce((sum, attempt) => sum + attempt.entity_count, 0);
    const relationships = attempts.reduce((sum, attempt) => sum + attempt.relationship_count, 0);
    const per = (value: number) => (attempts.length ? Math.round((value / attempts.length) * 10) / 10 : 0);
    const byStage = new Map<string, number>();
    for (const item of dropped) byStage.set(item.stage, (byStage.get(item.stage) ?? 0) + 1);
    const invalidRelationships = dropped.filter((item) => item.kind === 'relationship').length;
    return {
      source_id: sourceId,
      job_id: job.id,
      domain: job.domain,
      total_tasks: attempts.length,
      context_window: contextWindow,
      ...prefixed('input_tokens', input),
      ...prefixed('output_tokens', output),
      ...prefixed('total_tokens', total),
      ...prefixed('utilization', utilization),
      ...prefixed('duration_ms', duration),
      total_entities: entities,
      avg_entities_per_task: per(entities),
      total_relationships: relationships,
      avg_relationships_per_task: per(relationships),
      total_retries: retries.reduce((sum, row) => sum + Number(row.n) - 1, 0),
      max_retries_single_task: Math.max(0, ...retries.map((row) => Number(row.n) - 1)),
      total_invalid_relationships: invalidRelationships,
      avg_invalid_per_task: per(invalidRelationships),
      total_entities_filtered: dropped.filter((item) => item.kind === 'entity').length,
      total_relationships_filtered: invalidRelationships,
      filtering_stage_summary: [...byStage].map(([stage, count]) => ({ stage, count })),
      ...(await this.prompts(job.domain)),
    };
  }

  /** The prompts the extractor builds from the run's domain, shown without a document's sentences. */
  private async prompts(domainName: string) {
    const domain = (await domainRegistryFor(this.deps.db)).get(domainName);
    if (!domain) return { system_prompt: SYSTEM_PROMPT };
    return {
      system_prompt: SYSTEM_PROMPT,
      extraction_rules_template: entityPrompt({ sentences: [], domain }),
      relationship_instructions: relationshipPrompt({ sentences: [], domain, entities: [] }),
      entity_templates: domain.templates.node_templates.map(({ name, description }) => ({ name, description })),
      relationship_templates: domain.templates.edge_templates.map(({ name, description }) => ({ name, description })),
      domain_guidance: domain.entity_guidance,
      relationship_guidance: domain.relationship_guidance,
      domain_examples: [...domain.examples.alias_examples, ...domain.examples.relationship_examples],
    };
  }

  /** One point per group of the current run (its latest attempt): for the source page's charts. */
  async charts(sourceId: string) {
    const latest = await this.latest(sourceId);
    if (!latest) return [];
    const counts = (await this.deps
      .db('extraction_attempts')
      .where({ job_id: latest.job.id })
      .groupBy('group_index')
      .select('group_index')
      .count({ n: '*' })) as { group_index: number; n: number }[];
    const tries = new Map(counts.map((row) => [row.group_index, Number(row.n)]));
    return latest.attempts.map((attempt) => ({
      id: attempt.id,
      chunk_index: attempt.group_index,
      status: attempt.status,
      retry_count: (tries.get(attempt.group_index) ?? 1) - 1,
      entity_count: attempt.entity_count,
      relationship_count: attempt.relationship_count,
      invalid_relationship_count: parse<DroppedItem[]>(attempt.dropped, []).filter(
        (item) => item.kind === 'relationship',
      ).length,
      input_text_length: attempt.input_text_length,
      input_tokens: attempt.input_tokens,
      output_tokens: attempt.output_tokens,
      llm_duration_ms: attempt.llm_duration_ms,
      completed_at: attempt.completed_at,
    }));
  }

  /** The source's model calls, newest first, each with the extraction group its task ran when it ran one. */
  async llmCalls(sourceId: string, page: { offset: number; limit: number }, success?: boolean) {
    await this.source(sourceId);
    if (!this.deps.metrics) return { calls: [], total: 0 };
    const { rows, total } = await this.deps.metrics.callsOf(this.deps.database, sourceId, page, success);
    const taskIds = [...new Set(rows.flatMap((row) => (row.task_id ? [row.task_id] : [])))];
    const groups = taskIds.length
      ? ((await this.deps
          .db('extraction_attempts')
          .where({ source_id: sourceId })
          .whereIn('task_id', taskIds)
          .select('task_id', 'group_index', 'input_text_length', 'entity_count', 'relationship_count')) as {
          task_id: string;
          group_index: number;
          input_text_length: number;
          entity_count: number;
          relationship_count: number;
        }[])
      : [];
    const byTask = new Map(groups.map((group) => [group.task_id, group]));
    return {
      calls: rows.map((row) => {
        const group = row.task_id ? byTask.get(row.task_id) : undefined;
        return {
          id: row.id,
          database_name: this.deps.database,
          source_id: sourceId,
          chunk_task_id: row.task_id,
          operation_type: row.operation,
          provider: row.provider,
          model: row.model,
          input_tokens: row.input_tokens,
          output_tokens: row.output_tokens,
          duration_ms: row.duration_ms,
          started_at: row.at,
          success: row.success === 1,
          error_type: row.error_kind,
          was_retry: row.attempts > 1,
          chunk_index: group?.group_index ?? null,
          chunk_size_chars: group?.input_text_length ?? null,
          entities_extracted: group?.entity_count ?? null,
          relationships_extracted: group?.relationship_count ?? null,
          created_at: row.at,
        };
      }),
      total,
    };
  }

  /** The source's model use in one object. */
  async llmSummary(sourceId: string) {
    await this.source(sourceId);
    const totals = this.deps.metrics
      ? await this.deps.metrics.totals({ database: this.deps.database, sourceId })
      : { calls: 0, failed_calls: 0, input_tokens: 0, output_tokens: 0, duration_ms: 0 };
    const successful = totals.calls - totals.failed_calls;
    return {
      source_id: sourceId,
      has_metrics: totals.calls > 0,
      summary: {
        total_calls: totals.calls,
        successful_calls: successful,
        failed_calls: totals.failed_calls,
        total_input_tokens: totals.input_tokens,
        total_output_tokens: totals.output_tokens,
        total_duration_ms: totals.duration_ms,
        avg_call_duration_ms: totals.calls ? Math.round((totals.duration_ms / totals.calls) * 10) / 10 : 0,
        success_rate: totals.calls ? Math.round((successful / totals.calls) * 1000) / 1000 : 0,
      },
    };
  }

  async recoveryEvents(sourceId: string, page: { offset: number; limit: number }) {
    await this.source(sourceId);
    return recoveryEvents(this.deps.db, sourceId, page);
  }
}

function prefixed<K extends string>(name: K, values: { min: number; max: number; avg: number }) {
  return {
    [`min_${name}`]: values.min,
    [`max_${name}`]: values.max,
    [`avg_${name}`]: values.avg,
  } as Record<`min_${K}` | `max_${K}` | `avg_${K}`, number>;
}
