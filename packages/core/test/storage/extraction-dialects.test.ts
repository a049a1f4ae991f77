import type { SourceStatus } from '@rhizome/contracts/api/sources';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedTaskStore, OperationRegistry, QueueService } from '@rhizome/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkProgress, bulkTargets } from '../../src/extraction/bulk.ts';
import { commitExtraction, type CommitOutcome } from '../../src/extraction/commit/commit.ts';
import { removeContribution } from '../../src/extraction/commit/contributions.ts';
import { emptyStats } from '../../src/extraction/finalize/model.ts';
import {
  cancelActiveJobs,
  completedHarvests,
  getJob,
  groupCounts,
  insertJob,
  latestJob,
  listGroups,
  moveGroup,
  moveJob,
  newJob,
  type JobRow,
} from '../../src/extraction/jobs.ts';
import { resolveExtractionOptions, type ExtractionOptions } from '../../src/extraction/options.ts';
import type { ExtractionPlan } from '../../src/extraction/plan.ts';
import { existingPassages } from '../../src/extraction/read-model/cited-passages.ts';
import { sourceCitations } from '../../src/extraction/read-model/source-citations.ts';
import { recordRecoveryEvent, recoveryEvents } from '../../src/extraction/recovery-events.ts';
import { finishIdleExtractions } from '../../src/extraction/recovery.ts';
import { maxTries } from '../../src/tasks/index.ts';
import type { FinalEntity, FinalizeResult, FinalRelationship } from '../../src/extraction/types.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { getSource } from '../../src/sources/repo.ts';
import type { Db } from '../../src/storage/index.ts';
import { defaultSettings } from '@rhizome/contracts/settings';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const biographical = builtinDomains().find((domain) => domain.name === 'biographical')!;

const sentence = (chunkId: string, text: string) => ({
  chunkId,
  chunkIndex: 0,
  sentence: text,
  start: 0,
  end: text.length,
});

function entity(name: string, type: string, chunkId: string, extra: Partial<FinalEntity> = {}): FinalEntity {
  return {
    key: name.toLowerCase(),
    name,
    type,
    typeNormalizedFrom: null,
    aliases: [],
    description: `${name} of the record`,
    confidence: 0.8,
    properties: {},
    mergedPropertyHistory: {},
    evidence: [sentence(chunkId, `${name} appears here.`)],
    ...extra,
  };
}

function relationship(sourceIndex: number, targetIndex: number, type: string, chunkId: string): FinalRelationship {
  return {
    sourceIndex,
    targetIndex,
    type,
    confidence: 0.7,
    justification: 'stated in the text',
    evidence: [sentence(chunkId, 'They worked together.')],
    directionCorrected: false,
    inverseOf: null,
  };
}

const result = (entities: FinalEntity[], relationships: FinalRelationship[] = []): FinalizeResult => ({
  entities,
  relationships,
  stats: emptyStats(),
});

const plan = (groups: number): ExtractionPlan => ({
  groups: Array.from({ length: groups }, (_, index) => ({
    groupIndex: index,
    firstChunkIndex: index,
    lastChunkIndex: index,
  })) as ExtractionPlan['groups'],
  chunksKept: groups,
  chunksTotal: groups,
  estimate: { inputTokens: 10, outputTokens: 5, costUsd: null },
});

/** Extraction's jobs, its commit to the graph with citations, and its read models on both dialects. */
describe.each(dialects)('extraction on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  let options: ExtractionOptions;
  let firstCommit: CommitOutcome;

  beforeAll(async () => {
    db = await databases.open('extraction');
    const source = (id: string, status: SourceStatus, extra: Record<string, unknown> = {}) => ({
      id,
      title: id,
      status,
      created_at: at,
      updated_at: at,
      ...extra,
    });
    await db('sources').insert([
      source('s1', 'extracted'),
      source('s2', 'extracted'),
      source('s3', 'committed'),
      source('s4', 'error', { error_stage: 'commit' }),
      source('s5', 'indexed'),
    ]);
    await db('document_chunks').insert(
      ['s1', 's2'].flatMap((sourceId) =>
        [0, 1].map((index) => ({
          id: `${sourceId}_c${index}`,
          source_id: sourceId,
          chunk_index: index,
          content: 'Ada Lovelace appears here. They worked together.',
          page_number: index + 1,
          created_at: at,
        })),
      ),
    );
    options = resolveExtractionOptions((await getSource(db, 's5'))!, {}, biographical, defaultSettings());
  }, 120_000);
  afterAll(() => databases.close());

  const commit = (sourceId: string, finalized: FinalizeResult) =>
    commitExtraction({
      db,
      database: 'extraction',
      sourceId,
      jobId: `job_${sourceId}`,
      domain: biographical,
      result: finalized,
      method: 'builtin',
    });
  const graphOf = async (sourceId: string) =>
    (
      (await db('graph_nodes as n')
        .join('node_sources as ns', 'ns.node_id', 'n.id')
        .where('ns.source_id', sourceId)
        .orderBy('n.label')
        .select('n.label')) as { label: string }[]
    ).map((row) => row.label);

  it('commits entities, relationships and their citations, merging onto the nodes another source holds', async () => {
    const first = await commit(
      's1',
      result(
        [
          entity('Ada Lovelace', 'Person', 's1_c0', { aliases: ['Ada King'] }),
          entity('Charles Babbage', 'Person', 's1_c1'),
        ],
        [relationship(0, 1, 'collaborated_with', 's1_c1')],
      ),
    );
    expect(first).toMatchObject({ nodesMerged: 0, edgesMerged: 0, entityCitations: 2, relationshipCitations: 1 });
    expect(first.nodesCreated).toHaveLength(2);
    expect(first.edgesCreated).toHaveLength(1);
    firstCommit = first;

    const second = await commit(
      's2',
      result([entity('Ada Lovelace', 'Person', 's2_c0'), entity('Mary Somerville', 'Person', 's2_c1')]),
    );
    expect(second.nodesCreated).toHaveLength(1);
    expect(second.nodesUpdated).toEqual([first.nodesCreated.find((id) => second.nodesUpdated.includes(id))]);
    expect(await graphOf('s1')).toEqual(['Ada Lovelace', 'Charles Babbage']);
    expect(await graphOf('s2')).toEqual(['Ada Lovelace', 'Mary Somerville']);
    expect(await db('graph_nodes').count({ n: '*' }).first()).toEqual({ n: 3 });

    const citations = await sourceCitations(db, 's1', { offset: 0, limit: 10 });
    expect(citations.total).toBe(2);
    expect(
      citations.items.map((citation) => [citation.entity_label, citation.entity_type, citation.chunk_id]).sort(),
    ).toEqual([
      ['Ada Lovelace', 'Person', 's1_c0'],
      ['Charles Babbage', 'Person', 's1_c1'],
    ]);
    expect(citations.items.every((citation) => citation.extraction_method === 'builtin')).toBe(true);
    expect(await sourceCitations(db, 's1', { offset: 1, limit: 10 })).toMatchObject({
      total: 2,
      items: [expect.anything()],
    });
    const templates = await db('template_sources').where({ source_id: 's1' }).count({ n: '*' }).first();
    expect(Number(templates?.n)).toBeGreaterThanOrEqual(2);
  });

  it('commits a source again in place, and takes back only what no other source holds', async () => {
    const again = await commit(
      's1',
      result(
        [entity('Ada Lovelace', 'Person', 's1_c0'), entity('Charles Babbage', 'Person', 's1_c1')],
        [relationship(0, 1, 'collaborated_with', 's1_c1')],
      ),
    );
    // Its own contribution is taken back first: Charles, whom only s1 held, comes back under his stable id.
    expect(again).toMatchObject({ nodesRemoved: 1, entityCitations: 2, relationshipCitations: 1 });
    expect([...again.nodesCreated, ...again.nodesUpdated].sort()).toEqual([...firstCommit.nodesCreated].sort());
    expect(again.edgesCreated).toEqual(firstCommit.edgesCreated);
    expect(await db('source_citations').where({ source_id: 's1' }).count({ n: '*' }).first()).toEqual({ n: 2 });

    const removed = await db.transaction((trx) => removeContribution(trx, 's2'));
    expect(removed.edges).toEqual([]);
    expect(removed.nodes).toHaveLength(1);
    expect(await graphOf('s2')).toEqual([]);
    expect(await graphOf('s1')).toEqual(['Ada Lovelace', 'Charles Babbage']);
    expect(await db('source_citations').where({ source_id: 's2' }).count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await db('relationship_citations').where({ source_id: 's1' }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('keeps jobs and their groups, moving them only from the expected statuses', async () => {
    const older = newJob('s5', 'biographical', options, plan(3), 'queued', at);
    const newer = newJob('s5', 'biographical', options, plan(2), 'queued', at);
    await db.transaction(async (trx) => {
      await insertJob(trx, older, plan(3));
      await insertJob(trx, newer, plan(2));
    });
    // Same creation time: the one inserted last is the latest.
    expect((await latestJob(db, 's5'))?.id).toBe(newer.id);
    expect(await getJob(db, older.id)).toMatchObject({ total_groups: 3, estimated_cost_usd: null, status: 'queued' });

    expect(await moveJob(db, older.id, ['running'], { status: 'finalizing' })).toBe(false);
    expect(await moveJob(db, older.id, ['queued'], { status: 'running', started_at: at })).toBe(true);
    expect(
      await moveGroup(db, older.id, 1, ['pending'], { status: 'completed', harvest: '{"n":1}', entity_count: 4 }),
    ).toBe(true);
    expect(await moveGroup(db, older.id, 1, ['pending'], { status: 'failed' })).toBe(false);
    await moveGroup(db, older.id, 2, ['pending'], { status: 'completed', harvest: '{"n":2}' });
    expect(await groupCounts(db, older.id)).toMatchObject({ pending: 1, completed: 2, failed: 0 });
    expect(await completedHarvests(db, older.id)).toEqual(['{"n":1}', '{"n":2}']);
    expect(
      (await listGroups(db, older.id, { offset: 1, limit: 1 })).map((group) => [group.group_index, group.status]),
    ).toEqual([[1, 'completed']]);

    expect(await cancelActiveJobs(db, 's5', 'stopped')).toBe(2);
    expect(await getJob(db, older.id)).toMatchObject({ status: 'cancelled', error_message: 'stopped' });
    expect(await groupCounts(db, older.id)).toMatchObject({ cancelled: 1, completed: 2 });
  });

  it('picks the sources a bulk run extracts and reports how far it got', async () => {
    const running: JobRow = {
      ...newJob('s3', 'biographical', options, plan(1), 'running', '2026-02-01T00:00:00.000Z'),
    };
    const failed: JobRow = {
      ...newJob('s4', 'biographical', options, plan(1), 'queued', '2026-02-01T00:00:01.000Z'),
      status: 'failed',
      error_message: 'no model',
    };
    await db.transaction(async (trx) => {
      await insertJob(trx, running, plan(1));
      await insertJob(trx, failed, plan(1));
    });
    expect((await bulkTargets(db, { all: true })).sort()).toEqual(['s1', 's2', 's4']);
    expect((await bulkTargets(db, { all: true, force: true })).sort()).toEqual(['s1', 's2', 's3', 's4']);
    await expect(bulkTargets(db, { source_ids: ['s3'] })).rejects.toMatchObject({ kind: 'conflict' });
    await expect(bulkTargets(db, { source_ids: ['nope'] })).rejects.toMatchObject({ kind: 'not_found' });

    expect(await bulkProgress(db, ['s1', 's3', 's4'], '2026-02-01T00:00:00.000Z')).toEqual({
      total: 3,
      not_started: 1,
      in_progress: 1,
      completed: 0,
      failed: 1,
      cancelled: 0,
      progress_percent: 33.3,
      failures: [{ source_id: 's4', error: 'no model' }],
    });
  });

  it('lists recovery events newest first and finds which cited passages still exist', async () => {
    for (const [index, action] of ['extract_chunk', 'finalize_extraction', 'settle_status'].entries())
      await recordRecoveryEvent(db, {
        sourceId: 's1',
        fromStatus: 'extracting',
        action,
        reason: 'stalled',
        enqueued: index,
        detail: index === 2 ? 'the job had ended' : undefined,
      });
    const page = await recoveryEvents(db, 's1', { offset: 0, limit: 2 });
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => [row.action_taken, row.enqueued_count, row.detail])).toEqual([
      ['settle_status', 2, 'the job had ended'],
      ['finalize_extraction', 1, null],
    ]);

    const found = await existingPassages(db, ['s1', 'gone', 's1'], ['s1_c0', 's2_c1', 'nope']);
    expect(found).toEqual({ sources: new Set(['s1']), chunks: new Set(['s1_c0', 's2_c1']) });
  });

  it('finishes extractions left idle: queues their unstarted groups, settles sources whose job ended', async () => {
    const old = '2025-12-01T00:00:00.000Z';
    const idle = (id: string, status: SourceStatus, jobId: string | null) => ({
      id,
      title: id,
      status,
      extraction_job_id: jobId,
      last_activity_at: old,
      created_at: old,
      updated_at: old,
    });
    const open = newJob('r_open', 'biographical', options, plan(2), 'running', old);
    const done = {
      ...newJob('r_done', 'biographical', options, plan(0), 'running', old),
      status: 'completed' as const,
    };
    const failed = {
      ...newJob('r_failed', 'biographical', options, plan(0), 'running', old),
      status: 'failed' as const,
    };
    failed.error_message = 'the model went away';
    await db('sources').insert([
      idle('r_open', 'extracting', open.id),
      idle('r_done', 'committing', done.id),
      idle('r_failed', 'extracted', failed.id),
      idle('r_none', 'extracting', null),
    ]);
    await db.transaction(async (trx) => {
      await insertJob(trx, open, plan(2));
      await insertJob(trx, done, plan(0));
      await insertJob(trx, failed, plan(0));
    });
    await moveGroup(db, open.id, 0, ['pending'], { status: 'completed', harvest: '{}' });

    const queueDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-recovery-queue-'));
    const tasks = await EmbeddedTaskStore.open(path.join(queueDir, 'queue.db'));
    try {
      const queue = new QueueService(tasks, new OperationRegistry(), () => maxTries(defaultSettings()));
      const context = { db, database: 'extraction', queue, tasks, priority: 10 };
      const finished = (await finishIdleExtractions(context, 60_000)).filter((item) => item.sourceId.startsWith('r_'));
      expect(Object.fromEntries(finished.map((item) => [item.sourceId, item.outcome]))).toEqual({
        r_done: 'committed',
        r_failed: 'error',
        r_none: 'indexed',
        r_open: 'groups queued again',
      });
      const groups = await listGroups(db, open.id);
      expect(groups.map((group) => [group.group_index, group.status, Boolean(group.task_id)])).toEqual([
        [0, 'completed', false],
        [1, 'queued', true],
      ]);
      expect((await tasks.get(groups[1].task_id!))?.operation).toBe('extraction.group');
      expect(await getSource(db, 'r_failed')).toMatchObject({ status: 'error', error_message: 'the model went away' });
      expect(await getSource(db, 'r_none')).toMatchObject({ status: 'indexed', extraction_job_id: null });
      expect((await recoveryEvents(db, 'r_open', { offset: 0, limit: 5 })).total).toBe(1);
    } finally {
      await tasks.close();
      fs.rmSync(queueDir, { recursive: true, force: true });
    }
  });
});
