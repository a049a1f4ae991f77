import type { Settings } from '@rhizome/contracts/settings';
import { BadInput, Conflict, NotFound, RateLimited, TooLarge } from '@rhizome/contracts/errors';
import type { QueueService } from '@rhizome/queue';
import {
  domainRegistryFor,
  fallbackDomain,
  getSource,
  updateSource,
  type DomainDefinition,
  type SourceRow,
} from '../../sources/index.ts';
import type { Db } from '../../storage/index.ts';
import { harvestGroup } from '../harvest/index.ts';
import { entityPrompt, relationshipPrompt } from '../harvest/prompts.ts';
import { promptText, splitSentences } from '../harvest/sentences.ts';
import {
  activeJobStatuses,
  finalizeWhenDone,
  getGroup,
  getJob,
  latestJob,
  listGroups,
  moveGroup,
  moveJob,
  insertJob,
  assertStartable,
  newJob,
  type GroupRow,
  type JobRow,
} from '../jobs.ts';
import { resolveExtractionOptions, runPreset, type ExtractionOptions, type ExtractionRequest } from '../options.ts';
import { groupChunks, planExtraction } from '../plan.ts';
import type { GroupHarvest } from '../types.ts';
import { scriptedAnswer } from './scripted-answer.ts';
import { SubmissionLimiter } from './submission-limiter.ts';

/**
 * Extraction done by an agent over MCP instead of the server's model. Starting one plans the groups like a
 * server run but queues nothing: the source is `mcp_extracting` and the agent reads each group's prompts,
 * answers pass 1 (E and P lines) and then pass 2 (R lines over the entities that survived, whose list the
 * first answer returns), and finalises. Its lines go through the server's own harvest, finalisation and
 * commit, so the graph cannot tell who did the reading.
 */

export interface AgentExtractionDeps {
  db: Db;
  database: string;
  queue: QueueService;
  settings(): Settings;
}

export type AgentPass = 'entities' | 'relationships';

export interface AgentTask {
  group_index: number;
  status: GroupRow['status'];
  /** The pass the group waits for, or null once it is done. */
  next_pass: AgentPass | null;
  chunk_ids: string[];
  pages: number[];
  /** The prompt of the next pass, exactly as the server's extractor would send it. */
  prompt: string | null;
}

export interface SubmitOutcome {
  group_index: number;
  pass: AgentPass;
  status: GroupRow['status'];
  lines_parsed: number;
  lines_rejected: number;
  rejected_by_reason: Record<string, number>;
  entities: { index: number; name: string; type: string; aliases: string[] }[];
  relationships: number;
  /** Pass 2's prompt when the group now waits for relationships. */
  next_prompt: string | null;
  groups_left: number;
}

/** Which groups of a run are done and which are left. */
export interface AgentProgress {
  source_id: string;
  status: SourceRow['status'];
  total_chunks: number;
  submitted_indices: number[];
  missing_indices: number[];
  ready_to_finalize: boolean;
}

/** One group's text as the prompts number it, for an agent that writes its own prompt. */
export interface AgentGroupText {
  index: number;
  text: string;
  sentences: { ref: string; text: string }[];
  token_estimate: number;
}

/** Entity lines of a group kept between its two passes (on the group row, which is `running` meanwhile). */
interface PendingEntities {
  agent_entity_lines: string[];
}

const limiter = new SubmissionLimiter(120, 60_000);

/** A pending group waits for its entities; a running one (entities read, at least two kept) for its relationships. */
function nextPass(group: Pick<GroupRow, 'status'>): AgentPass | null {
  if (group.status === 'pending') return 'entities';
  return group.status === 'running' ? 'relationships' : null;
}

export class AgentExtraction {
  constructor(private readonly deps: AgentExtractionDeps) {}

  /** Starts (or, when one is already under way, returns) the source's agent-driven run. */
  async start(sourceId: string, request: ExtractionRequest = {}): Promise<JobRow> {
    const { db } = this.deps;
    const source = await this.source(sourceId);
    if (source.status === 'mcp_extracting' && source.extraction_job_id) {
      const job = await getJob(db, source.extraction_job_id);
      if (job && activeJobStatuses.includes(job.status)) return job;
    }
    const running = await latestJob(db, sourceId);
    if (running && activeJobStatuses.includes(running.status)) {
      throw new Conflict(`Source '${sourceId}' is already being extracted by the server (job ${running.id})`, {
        job_id: running.id,
      });
    }
    assertStartable(sourceId, source.status, request.force);
    if (source.chunk_count === 0)
      throw BadInput.field(`Source '${sourceId}' has nothing to extract: no text could be read from it`, 'source_id');
    const domain = await this.domain(
      request.domain ?? source.forced_domain ?? source.extraction_domain ?? fallbackDomain,
    );
    const settings = this.deps.settings();
    const options = resolveExtractionOptions(source, request, domain, settings);
    const plan = await planExtraction(db, sourceId, options, domain, settings);
    if (!plan.groups.length)
      throw BadInput.field(
        `Content filtering (${options.filteringMode}) kept none of the ${plan.chunksTotal} chunks of '${sourceId}'`,
        'filtering_mode',
      );

    const now = new Date().toISOString();
    const job = newJob(sourceId, domain.name, options, plan, 'running', now);
    await db.transaction(async (trx) => {
      await insertJob(trx, job, plan);
      const moved = await updateSource(
        trx,
        sourceId,
        {
          status: 'mcp_extracting',
          extraction_job_id: job.id,
          extraction_domain: domain.name,
          analysis_depth: options.depth,
          extraction_started_at: now,
          extraction_completed_at: null,
          commit_started_at: null,
          commit_completed_at: null,
          error_stage: null,
          error_message: null,
          current_step: 'mcp_extracting',
          step_description: `Waiting for an agent to extract ${plan.groups.length} groups`,
          last_activity_at: now,
        },
        [source.status],
      );
      if (!moved) throw new Conflict(`Source '${sourceId}' changed while its extraction was being started`);
    });
    return job;
  }

  /** The run's groups with the prompt each waits for, one page at a time. */
  async tasks(sourceId: string, page: { offset: number; limit: number }): Promise<{ job: JobRow; tasks: AgentTask[] }> {
    const job = await this.activeJob(sourceId);
    const { options, domain } = await this.jobContext(job);
    const groups = await listGroups(this.deps.db, job.id, page);
    const tasks: AgentTask[] = [];
    for (const group of groups) {
      const next = nextPass(group);
      const chunks = await groupChunks(
        this.deps.db,
        sourceId,
        group.first_chunk_index,
        group.last_chunk_index,
        options,
        domain,
      );
      tasks.push({
        group_index: group.group_index,
        status: group.status,
        next_pass: next,
        chunk_ids: chunks.map((chunk) => chunk.id),
        pages: [...new Set(chunks.flatMap((chunk) => (chunk.pageNumber === null ? [] : [chunk.pageNumber])))],
        prompt: next === null ? null : await this.prompt(job, group, next),
      });
    }
    return { job, tasks };
  }

  /** One pass of one group, read exactly as a model's answer would be. */
  async submit(
    sourceId: string,
    groupIndex: number,
    pass: AgentPass,
    lines: readonly string[],
  ): Promise<SubmitOutcome> {
    const cap = this.deps.settings().mcp.max_extraction_payload_bytes;
    const size = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    if (size > cap)
      throw new TooLarge(
        cap,
        `The submitted lines are ${size} bytes, over mcp.max_extraction_payload_bytes (${cap}); submit fewer lines at a time`,
      );
    if (!limiter.take(`${this.deps.database}/${sourceId}`)) {
      throw new RateLimited(`Too many submissions for source '${sourceId}': at most ${limiter.max} a minute`, {
        retry_after_seconds: limiter.windowMs / 1000,
      });
    }
    const job = await this.activeJob(sourceId);
    const group = await getGroup(this.deps.db, job.id, groupIndex);
    if (!group) throw NotFound.resource('Extraction group', `${sourceId}#${groupIndex}`);
    const expected = nextPass(group);
    if (expected === null) throw new Conflict(`Group ${groupIndex} of '${sourceId}' is ${group.status} already`);
    if (pass !== expected)
      throw BadInput.field(`Group ${groupIndex} waits for its ${expected} pass, not ${pass}`, 'pass');

    const entityLines =
      pass === 'entities' ? [...lines] : (JSON.parse(group.harvest ?? '{}') as PendingEntities).agent_entity_lines;
    const harvest = await this.harvest(job, group, {
      entities: entityLines,
      relationships: pass === 'relationships' ? lines : [],
    });
    const now = new Date().toISOString();
    const awaitingRelationships = pass === 'entities' && harvest.entities.length >= 2;
    if (awaitingRelationships) {
      await moveGroup(this.deps.db, job.id, groupIndex, ['pending'], {
        status: 'running',
        started_at: now,
        harvest: JSON.stringify({ agent_entity_lines: entityLines } satisfies PendingEntities),
        entity_count: harvest.entities.length,
      });
    } else {
      await moveGroup(this.deps.db, job.id, groupIndex, ['pending', 'running'], {
        status: 'completed',
        harvest: JSON.stringify(harvest),
        entity_count: harvest.entities.length,
        relationship_count: harvest.relationships.length,
        started_at: group.started_at ?? now,
        completed_at: now,
        duration_ms: Date.now() - Date.parse(group.started_at ?? now),
        error_message: null,
      });
    }
    const left = (await listGroups(this.deps.db, job.id)).filter((row) => row.status !== 'completed').length;
    await updateSource(this.deps.db, sourceId, {
      step_description: `Agent extraction: ${job.total_groups - left} of ${job.total_groups} groups done`,
      last_activity_at: now,
    });
    return {
      group_index: groupIndex,
      pass,
      status: awaitingRelationships ? 'running' : 'completed',
      lines_parsed: harvest.stats.linesParsed,
      lines_rejected: harvest.stats.linesRejected,
      rejected_by_reason: harvest.stats.rejectedByReason,
      entities: harvest.entities.map((entity, index) => ({
        index,
        name: entity.name,
        type: entity.type,
        aliases: entity.aliases,
      })),
      relationships: harvest.relationships.length,
      next_prompt: awaitingRelationships
        ? await this.prompt(
            job,
            { ...group, status: 'running', harvest: JSON.stringify({ agent_entity_lines: entityLines }) },
            'relationships',
          )
        : null,
      groups_left: left,
    };
  }

  /** Which groups are done: a group is submitted once both its passes are in (or its only one). */
  async progress(sourceId: string): Promise<AgentProgress> {
    const source = await this.source(sourceId);
    const job = await this.activeJob(sourceId);
    const groups = await listGroups(this.deps.db, job.id);
    const done = (group: GroupRow) => group.status === 'completed';
    const missing = groups.filter((group) => !done(group)).map((group) => group.group_index);
    return {
      source_id: sourceId,
      status: source.status,
      total_chunks: job.total_groups,
      submitted_indices: groups.filter(done).map((group) => group.group_index),
      missing_indices: missing,
      ready_to_finalize: missing.length === 0,
    };
  }

  /** The groups' texts with their numbered sentences (`S1` …), as the prompts show them. */
  async groupTexts(sourceId: string, groupIndices: readonly number[]): Promise<AgentGroupText[]> {
    const job = await this.activeJob(sourceId);
    const texts: AgentGroupText[] = [];
    for (const index of groupIndices) {
      const group = await getGroup(this.deps.db, job.id, index);
      if (!group) throw NotFound.resource('Extraction group', `${sourceId}#${index}`);
      const { chunks, sentences } = await this.sentences(job, group);
      const text = chunks.map((chunk) => chunk.content).join('\n\n');
      texts.push({
        index,
        text,
        sentences: sentences.map((sentence) => ({ ref: `S${sentence.number}`, text: promptText(sentence) })),
        token_estimate: Math.ceil(text.length / 4),
      });
    }
    return texts;
  }

  /**
   * Hands the run to the server's finalisation and commit (queued like a server run's). Groups not done
   * are refused unless `skipRemaining`, which leaves them out (cancelled).
   */
  async finalize(sourceId: string, skipRemaining = false): Promise<JobRow> {
    const { db } = this.deps;
    const job = await this.activeJob(sourceId);
    const open = (await listGroups(db, job.id)).filter(
      (group) => group.status === 'pending' || group.status === 'running',
    );
    if (open.length && !skipRemaining) {
      throw BadInput.field(
        `${open.length} of ${job.total_groups} groups are not done (first: ${open[0].group_index}); submit them or pass skip_remaining true`,
        'skip_remaining',
      );
    }
    const now = new Date().toISOString();
    for (const group of open)
      await moveGroup(db, job.id, group.group_index, ['pending', 'running'], {
        status: 'cancelled',
        completed_at: now,
        error_message: 'left out by the agent',
      });
    const moved = await updateSource(
      db,
      sourceId,
      {
        status: 'extracting',
        current_step: 'extracting',
        step_description: "Finalising the agent's extraction",
        last_activity_at: now,
      },
      ['mcp_extracting'],
    );
    if (!moved) throw new Conflict(`Source '${sourceId}' is no longer waiting for an agent`);
    if (
      !(await finalizeWhenDone(
        db,
        this.deps.queue,
        this.deps.database,
        job,
        this.deps.settings().priorities.background,
      ))
    ) {
      throw new Conflict(`The extraction job ${job.id} of '${sourceId}' could not move to finalisation`);
    }
    return (await getJob(db, job.id)) ?? job;
  }

  /** Agent runs nobody touched for `mcp.abandon_after_hours` end in `error` with the reason; returns their sources. */
  async abandonIdle(now = Date.now()): Promise<string[]> {
    const { db } = this.deps;
    const hours = this.deps.settings().mcp.abandon_after_hours;
    const before = new Date(now - hours * 3_600_000).toISOString();
    const idle = (await db('sources')
      .where({ status: 'mcp_extracting' })
      .where((query) => query.whereNull('last_activity_at').orWhere('last_activity_at', '<', before))
      .select('id', 'extraction_job_id')) as Pick<SourceRow, 'id' | 'extraction_job_id'>[];
    const at = new Date(now).toISOString();
    const reason = `Abandoned: no agent submission for ${hours} hours (mcp.abandon_after_hours)`;
    for (const source of idle) {
      await db.transaction(async (trx) => {
        if (source.extraction_job_id) {
          await moveJob(trx, source.extraction_job_id, activeJobStatuses, {
            status: 'failed',
            error_message: reason,
            completed_at: at,
          });
          await trx('extraction_groups')
            .where({ job_id: source.extraction_job_id })
            .whereIn('status', ['pending', 'running'])
            .update({ status: 'cancelled', completed_at: at });
        }
        await updateSource(
          trx,
          source.id,
          {
            status: 'error',
            error_stage: 'extraction',
            error_message: reason,
            current_step: 'error',
            step_description: reason,
            last_activity_at: at,
          },
          ['mcp_extracting'],
        );
      });
    }
    return idle.map((source) => source.id);
  }

  private async source(sourceId: string): Promise<SourceRow> {
    const source = await getSource(this.deps.db, sourceId);
    if (!source) throw NotFound.resource('Source', sourceId);
    return source;
  }

  private async activeJob(sourceId: string): Promise<JobRow> {
    const source = await this.source(sourceId);
    const job =
      source.status === 'mcp_extracting' && source.extraction_job_id
        ? await getJob(this.deps.db, source.extraction_job_id)
        : undefined;
    if (!job || !activeJobStatuses.includes(job.status)) {
      throw new Conflict(
        `Source '${sourceId}' is ${source.status}, not waiting for an agent: call get_extraction_tasks to start an agent extraction`,
      );
    }
    return job;
  }

  private async domain(name: string): Promise<DomainDefinition> {
    const domain = (await domainRegistryFor(this.deps.db)).get(name);
    if (!domain) throw BadInput.field(`Unknown domain '${name}'`, 'domain');
    return domain;
  }

  private async jobContext(job: JobRow): Promise<{ options: ExtractionOptions; domain: DomainDefinition }> {
    return { options: JSON.parse(job.options) as ExtractionOptions, domain: await this.domain(job.domain) };
  }

  private async sentences(job: JobRow, group: Pick<GroupRow, 'first_chunk_index' | 'last_chunk_index'>) {
    const { options, domain } = await this.jobContext(job);
    const chunks = await groupChunks(
      this.deps.db,
      job.source_id,
      group.first_chunk_index,
      group.last_chunk_index,
      options,
      domain,
    );
    return { chunks, sentences: splitSentences(chunks), options, domain };
  }

  private async prompt(job: JobRow, group: GroupRow, pass: AgentPass): Promise<string> {
    const { sentences, domain } = await this.sentences(job, group);
    if (pass === 'entities') return entityPrompt({ sentences, domain });
    const { entities } = await this.harvest(job, group, {
      entities: (JSON.parse(group.harvest ?? '{}') as PendingEntities).agent_entity_lines,
      relationships: [],
    });
    return relationshipPrompt({
      sentences,
      domain,
      entities: entities.map(({ name, type, aliases }) => ({ name, type, aliases })),
    });
  }

  /** The group's harvest from the agent's lines, through the server's own harvest; no model is called. */
  private async harvest(
    job: JobRow,
    group: Pick<GroupRow, 'first_chunk_index' | 'last_chunk_index'>,
    lines: { entities: readonly string[]; relationships: readonly string[] },
  ): Promise<GroupHarvest> {
    const { chunks, options, domain } = await this.sentences(job, group);
    const harvest = await harvestGroup({
      chunks,
      domain,
      preset: runPreset(options),
      strictEdgeTypes: options.strictEdgeTypes,
      llm: scriptedAnswer(lines),
      signal: new AbortController().signal,
      context: { database: this.deps.database, sourceId: job.source_id },
    });
    // No model answered: the harvest's call, token and retry counters describe nothing here.
    return { ...harvest, stats: { ...harvest.stats, llmCalls: 0, emptyAnswers: 0 } };
  }
}
