// Benchmark (issues 7 and 36): extraction pipeline overhead per group with an instant fake LLM (target ≤ 10 ms
// a group, excluding the model), with attempts recorded against none kept (recording adds ≤ 5 %), commit
// time of a source with 2,000 entities / 5,000 relationships (target ≤ 2 s), and the builtin provider end
// to end on a 1 MB text (entities/s). BENCH_GROUPS (default 200), BENCH_ROUNDS (interleaved rounds of each
// mode, default 5), BENCH_MIXED_SOURCES (sources run with recording switched at random, default 3) and
// BENCH_BUILTIN_KB (default 1024) scale it; BENCH_PARTS (e.g. "pipeline") picks parts.
import fs from 'node:fs';
import path from 'node:path';
import { commitExtraction } from '@rhizome/core/extraction';
import type { Evidence, FinalizeResult } from '@rhizome/core/extraction';
import { builtinDomains } from '@rhizome/core/sources';
import { startBenchServer } from './api-client.ts';
import { cpuMs, seededRandom, startProcess, stopProcess } from './harness.ts';

const groupCount = Number(process.env.BENCH_GROUPS ?? 200);
const builtinKb = Number(process.env.BENCH_BUILTIN_KB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const mixedSources = Number(process.env.BENCH_MIXED_SOURCES ?? 3);
const parts = (process.env.BENCH_PARTS ?? 'pipeline,commit,builtin').split(',');
const paragraph =
  'Marie Curie was born in Warsaw in 1867 and studied physics in Paris. Marie Curie married Pierre Curie in 1895 and they worked together on radioactivity.';

const { server, dataDir, cookie, expectOk } = await startBenchServer('extract');
const db = async () => (await server.platform.databases.current()).db;

interface Source {
  id: string;
  status: string;
  error_message: string | null;
  extraction_entities_count: number;
  extraction_relationships_count: number;
  chunk_count: number;
}

async function upload(name: string, text: string, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([text]), name);
  const response = await fetch(`${server.url}/api/v1/sources`, { method: 'POST', headers: { cookie }, body: form });
  if (response.status !== 202) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function waitFor(id: string, statuses: string[], timeoutMs = 600_000): Promise<Source> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const source = (await expectOk('GET', `/sources/${id}`)) as Source;
    if (statuses.includes(source.status)) return source;
    if (source.status === 'error') throw new Error(`source ${id}: ${source.error_message}`);
    if (Date.now() > deadline) throw new Error(`source ${id} still ${source.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface RoundFigures {
  groups: number;
  /** Per group: the queue task's time (handler start to its end, the attempt's write included) less the model calls'. */
  overheadMs: number;
  /** Per group: the same from the group's own duration (measured before its attempt is written). */
  groupOverheadMs: number;
  /**
   * Per group: the wall time from the first group's start to the last group's end, less the model calls':
   * whatever recording does, inside a task or between tasks, shows here.
   */
  wallOverheadMs: number;
  /**
   * The median over the groups of the task's time less the group's own duration: the group's write
   * (with its attempt), the check for the job's end and the queue's own bookkeeping. Recording adds
   * nothing else but a few array entries during the harvest, so this is where its cost shows, away from
   * the model calls' noise.
   */
  tailMs: number;
  /** Per group: this process's CPU time while the middle groups ran (the model runs in another process). */
  cpuMs: number;
  modelMs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * This process's CPU milliseconds per group while the job's groups from the first tenth to the last tenth
 * ran: its start and its end (finalisation and commit follow at once) stay out. Looked at in this
 * process, every 20 ms, by a count of the completed groups.
 */
async function steadyCpuPerGroup(jobId: string): Promise<number> {
  const database = await db();
  const completed = async () =>
    Number(
      (
        (await database('extraction_groups')
          .where({ job_id: jobId, status: 'completed' })
          .count({ n: '*' })
          .first()) as {
          n: number;
        }
      ).n,
    );
  const { total_groups: total } = (await database('extraction_jobs').where({ id: jobId }).first('total_groups')) as {
    total_groups: number;
  };
  const low = Math.ceil(total * 0.1);
  const high = Math.max(low + 1, Math.floor(total * 0.9));
  let from: { groups: number; cpu: NodeJS.CpuUsage } | undefined;
  for (;;) {
    const cpu = process.cpuUsage();
    const groups = await completed();
    if (!from && groups >= low) from = { groups, cpu };
    if (from && groups >= high) return cpuMs(process.cpuUsage(from.cpu)) / (groups - from.groups || 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * One source of `groupCount` groups through the instant fake model, its attempts recorded (the default
 * retention) or not (`source_processing.attempt_retention_days` 0 keeps none): the pipeline's own time
 * per group.
 */
async function pipelineRound(recording: boolean): Promise<RoundFigures & { jobId: string }> {
  await expectOk('PATCH', '/settings', { source_processing: { attempt_retention_days: recording ? 14 : 0 } });
  // Twelve copies of the paragraph (about 600 words) make about one extraction group (900 tokens).
  const id = await upload('groups.txt', Array.from({ length: groupCount * 12 }, () => paragraph).join('\n\n'), {
    auto_confirm: 'true',
    domain: 'biographical',
    filtering_mode: 'unfiltered',
  });
  await waitFor(id, ['extracting', 'extracted', 'committing', 'committed']);
  const database = await db();
  const { extraction_job_id: jobId } = (await database('sources').where({ id }).first('extraction_job_id')) as {
    extraction_job_id: string;
  };
  const cpuPerGroup = await steadyCpuPerGroup(jobId);
  await waitFor(id, ['committed']);
  const rows = (await database('extraction_groups').where({ job_id: jobId }).select('duration_ms', 'task_id')) as {
    duration_ms: number;
    task_id: string;
  }[];
  let taskMs = 0;
  let first = Infinity;
  let last = -Infinity;
  const tails: number[] = [];
  for (const row of rows) {
    const task = (await server.platform.tasks.get(row.task_id))!;
    const started = Date.parse(task.started_at!);
    const completed = Date.parse(task.completed_at!);
    taskMs += completed - started;
    tails.push(completed - started - row.duration_ms);
    first = Math.min(first, started);
    last = Math.max(last, completed);
  }
  const groupMs = rows.reduce((sum, row) => sum + row.duration_ms, 0);
  const model = await server.platform.providers.metrics.totals({
    database: server.platform.databases.currentName(),
    sourceId: id,
  });
  const attempts = Number(
    ((await database('extraction_attempts').where({ source_id: id }).count({ n: '*' }).first()) as { n: number }).n,
  );
  if (attempts !== (recording ? rows.length : 0))
    throw new Error(`${attempts} attempts recorded for ${rows.length} groups (recording ${recording})`);
  const per = (ms: number) => ms / rows.length;
  return {
    jobId,
    groups: rows.length,
    overheadMs: per(taskMs - model.duration_ms),
    groupOverheadMs: per(groupMs - model.duration_ms),
    wallOverheadMs: per(last - first - model.duration_ms),
    tailMs: median(tails),
    cpuMs: cpuPerGroup,
    modelMs: per(model.duration_ms),
  };
}

/**
 * The bare baseline, measured between the rounds on the same database and connection: one transaction
 * that updates one group row, the least any step of the pipeline writes. Median milliseconds of `count`.
 */
async function bareWrite(jobId: string, count = 200): Promise<number> {
  const database = await db();
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await database.transaction((trx) =>
      trx('extraction_groups')
        .where({ job_id: jobId, group_index: 0 })
        .update({ duration_ms: trx.raw('duration_ms') as unknown as number }),
    );
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * Recording switched on and off while one source's groups run, every 50 ms at random: each group keeps
 * the choice it started with (its attempt is there or not), so recorded and unrecorded groups alternate
 * through the same run and whatever else loads the machine meets both alike. Per group: the task's time
 * less its model calls' (its overhead) and less its own duration (the tail, where the attempt's write is).
 */
async function interleavedGroups(): Promise<Record<'on' | 'off', { overhead: number[]; tail: number[] }>> {
  const setRetention = (days: number) =>
    server.platform.settings.patch({ source_processing: { attempt_retention_days: days } });
  setRetention(14);
  const id = await upload('groups.txt', Array.from({ length: groupCount * 12 }, () => paragraph).join('\n\n'), {
    auto_confirm: 'true',
    domain: 'biographical',
    filtering_mode: 'unfiltered',
  });
  await waitFor(id, ['extracting', 'extracted', 'committing', 'committed']);
  const random = seededRandom(36);
  const toggle = setInterval(() => setRetention(random() < 0.5 ? 14 : 0), 50);
  try {
    await waitFor(id, ['extracted', 'committing', 'committed']);
  } finally {
    clearInterval(toggle);
    setRetention(14);
  }
  await waitFor(id, ['committed']);
  const database = await db();
  const { extraction_job_id: jobId } = (await database('sources').where({ id }).first('extraction_job_id')) as {
    extraction_job_id: string;
  };
  const rows = (await database('extraction_groups')
    .where({ job_id: jobId })
    .select('group_index', 'duration_ms', 'task_id')) as {
    group_index: number;
    duration_ms: number;
    task_id: string;
  }[];
  const recorded = new Set(
    (
      (await database('extraction_attempts').where({ job_id: jobId }).select('group_index')) as {
        group_index: number;
      }[]
    ).map((row) => row.group_index),
  );
  const calls = await server.platform.providers.metrics.callsOf(server.platform.databases.currentName(), id, {
    offset: 0,
    limit: 100_000,
  });
  const modelMs = new Map<string, number>();
  for (const call of calls.rows)
    if (call.task_id) modelMs.set(call.task_id, (modelMs.get(call.task_id) ?? 0) + call.duration_ms);
  const samples: Record<'on' | 'off', { overhead: number[]; tail: number[] }> = {
    on: { overhead: [], tail: [] },
    off: { overhead: [], tail: [] },
  };
  for (const row of rows) {
    const task = (await server.platform.tasks.get(row.task_id))!;
    const taskMs = Date.parse(task.completed_at!) - Date.parse(task.started_at!);
    const mode = samples[recorded.has(row.group_index) ? 'on' : 'off'];
    mode.overhead.push(taskMs - (modelMs.get(row.task_id) ?? 0));
    mode.tail.push(taskMs - row.duration_ms);
  }
  return samples;
}

type Figure = Exclude<keyof RoundFigures, 'groups'>;
const figureNames: Figure[] = ['overheadMs', 'groupOverheadMs', 'wallOverheadMs', 'tailMs', 'cpuMs', 'modelMs'];

/**
 * The pipeline's overhead per group with an instant fake model, with attempts recorded and without, in
 * interleaved rounds of the same run (on-off, then off-on, … after a warm-up round), each pair next to a
 * bare baseline: medians of each mode, the median of the pairs' ratios, and each figure in bare baselines.
 */
async function pipelineOverhead(): Promise<void> {
  const urlFile = path.join(dataDir, 'fake-url');
  const fake = await startProcess(
    'tools/bench/servers/extraction-ollama.ts',
    { BENCH_GROUPS: String(groupCount * (2 * rounds + mixedSources + 1)), BENCH_URL_FILE: urlFile },
    /FAKE READY/,
  );
  try {
    const url = fs.readFileSync(urlFile, 'utf8');
    await expectOk('PATCH', '/settings', {
      llm: {
        chat_provider: 'localllm',
        localllm_chat_model: 'bench-model',
        localllm_extraction_model: 'bench-model',
        localllm_instances: [{ id: 'fake', name: 'Fake', base_url: url, enabled: true }],
      },
    });
    const { jobId } = await pipelineRound(true);
    const mixed: Record<'on' | 'off', { overhead: number[]; tail: number[] }> = {
      on: { overhead: [], tail: [] },
      off: { overhead: [], tail: [] },
    };
    const bareMixed: number[] = [];
    for (let source = 0; source < mixedSources; source++) {
      bareMixed.push(await bareWrite(jobId));
      const samples = await interleavedGroups();
      for (const mode of ['on', 'off'] as const) {
        mixed[mode].overhead.push(...samples[mode].overhead);
        mixed[mode].tail.push(...samples[mode].tail);
      }
    }
    const bareOfMixed = median(bareMixed);
    const overheadOn = median(mixed.on.overhead);
    const overheadOff = median(mixed.off.overhead);
    const tailCost = median(mixed.on.tail) - median(mixed.off.tail);
    console.log(
      `fake-LLM pipeline, recording switched at random every 50 ms while ${mixedSources} sources of ${groupCount} groups ran: ${mixed.on.overhead.length} groups recorded, ${mixed.off.overhead.length} not; per group, medians`,
    );
    console.log(
      `  bare baseline: a one-row update transaction on the same database, ${bareOfMixed.toFixed(3)} ms (median of ${bareMixed.length} × 200)`,
    );
    console.log(
      `  overhead (task time less model calls): recorded ${overheadOn.toFixed(2)} ms (${(overheadOn / bareOfMixed).toFixed(1)}× bare), none kept ${overheadOff.toFixed(2)} ms (${(overheadOff / bareOfMixed).toFixed(1)}× bare); recording ${((overheadOn / overheadOff - 1) * 100).toFixed(1)} % (target ≤ 5 %)`,
    );
    console.log(
      `  tail (task time less the group's duration): recorded ${median(mixed.on.tail).toFixed(2)} ms, none kept ${median(mixed.off.tail).toFixed(2)} ms; the attempt's write ${tailCost.toFixed(2)} ms = ${((tailCost / overheadOff) * 100).toFixed(1)} % of the none-kept overhead, ${(tailCost / bareOfMixed).toFixed(2)}× bare`,
    );
    const figures: Record<'on' | 'off', RoundFigures[]> = { on: [], off: [] };
    const bare: number[] = [];
    for (let round = 0; round < rounds; round++) {
      bare.push(await bareWrite(jobId));
      for (const recording of round % 2 ? [false, true] : [true, false])
        figures[recording ? 'on' : 'off'].push(await pipelineRound(recording));
    }
    bare.push(await bareWrite(jobId));
    const baseline = median(bare);
    const medianOf = (mode: 'on' | 'off', figure: Figure) => median(figures[mode].map((round) => round[figure]));
    const pairRatio = (figure: Figure) =>
      median(figures.on.map((round, index) => round[figure] / figures.off[index][figure]));
    const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
    const line = (mode: 'on' | 'off', figure: Figure) =>
      `${medianOf(mode, figure).toFixed(2)} ms (${(medianOf(mode, figure) / baseline).toFixed(1)}× bare)`;
    console.log(
      `fake-LLM pipeline, ${figures.on[0].groups} groups a source, ${rounds} interleaved rounds of each mode after a warm-up; per group, medians`,
    );
    console.log(
      `  bare baseline: a one-row update transaction on the same database, ${baseline.toFixed(3)} ms (median of ${bare.length} × 200, between the rounds)`,
    );
    const labels: Record<Figure, string> = {
      overheadMs: "overhead by the tasks' times (attempt write included)",
      groupOverheadMs: "overhead by the groups' own durations",
      wallOverheadMs: 'overhead by wall time, first start to last end',
      tailMs: "each task's time after its group's duration (median)",
      cpuMs: 'CPU of this process (middle 80 % of the groups)',
      modelMs: 'model calls (fake, aside)',
    };
    for (const figure of figureNames)
      console.log(
        `  ${labels[figure].padEnd(54)} recorded ${line('on', figure)}, none kept ${line('off', figure)}; recording ${percent(medianOf('on', figure) / medianOf('off', figure))} (medians), ${percent(pairRatio(figure))} (median of pairs)`,
      );
    const cost = medianOf('on', 'tailMs') - medianOf('off', 'tailMs');
    const pairedCost = median(figures.on.map((round, index) => round.tailMs - figures.off[index].tailMs));
    const overhead = medianOf('off', 'overheadMs');
    console.log(
      `  recording's own cost (the tails' difference): ${cost.toFixed(2)} ms a group (medians), ${pairedCost.toFixed(2)} ms (median of pairs) = ${((cost / overhead) * 100).toFixed(1)} % / ${((pairedCost / overhead) * 100).toFixed(1)} % of the none-kept overhead, ${(cost / baseline).toFixed(2)}× bare`,
    );
    console.log(`  target: recording adds ≤ 5 % to the overhead; the overhead ≤ 10 ms a group`);
    for (const mode of ['on', 'off'] as const)
      console.log(
        `  rounds ${mode === 'on' ? 'recorded ' : 'none kept'} (task / wall overhead ms): ${figures[mode].map((round) => `${round.overheadMs.toFixed(2)}/${round.wallOverheadMs.toFixed(2)}`).join(' ')}`,
      );
    console.log(`  bare baselines (ms): ${bare.map((value) => value.toFixed(3)).join(' ')}`);
    await expectOk('PATCH', '/settings', {
      llm: { chat_provider: 'builtin' },
      source_processing: { attempt_retention_days: 14 },
    });
  } finally {
    await stopProcess(fake);
  }
}

/** A finalised result of `entities` entities and `relationships` relationships citing the source's chunks. */
function syntheticResult(
  chunks: { id: string; chunk_index: number; content: string }[],
  entities: number,
  relationships: number,
): FinalizeResult {
  const random = seededRandom(7);
  const evidence = (index: number): Evidence[] => {
    const chunk = chunks[index % chunks.length];
    return [
      {
        chunkId: chunk.id,
        chunkIndex: chunk.chunk_index,
        sentence: chunk.content.slice(0, 80),
        start: 0,
        end: Math.min(80, chunk.content.length),
      },
    ];
  };
  const types = ['Person', 'Place', 'Organization', 'Event'];
  const edgeTypes = ['related_to', 'member_of', 'located_in', 'participated_in', 'knows'];
  return {
    entities: Array.from({ length: entities }, (_, index) => ({
      key: `entity ${index}`,
      name: `Entity ${index}`,
      type: types[index % types.length],
      typeNormalizedFrom: null,
      aliases: [`E${index}`],
      description: `Entity number ${index}, described at some length so the stored properties look like a real extraction's.`,
      confidence: 0.8,
      properties: { rank: String(index) },
      mergedPropertyHistory: {},
      evidence: evidence(index),
    })),
    relationships: Array.from({ length: relationships }, (_, index) => {
      const sourceIndex = Math.floor(random() * entities);
      let targetIndex = Math.floor(random() * entities);
      if (targetIndex === sourceIndex) targetIndex = (targetIndex + 1) % entities;
      return {
        sourceIndex,
        targetIndex,
        type: edgeTypes[index % edgeTypes.length],
        confidence: 0.7,
        justification: `Relationship ${index} as the text states it plainly.`,
        evidence: evidence(index),
        directionCorrected: false,
        inverseOf: null,
      };
    }),
    stats: {} as FinalizeResult['stats'],
  };
}

async function commitTime(): Promise<void> {
  const id = await upload(
    'commit.txt',
    Array.from({ length: 400 }, (_, index) => `${paragraph} Paragraph ${index}.`).join('\n\n'),
    { extract_entities: 'false', auto_confirm: 'true' },
  );
  await waitFor(id, ['indexed']);
  const database = await db();
  const chunks = (await database('document_chunks')
    .where({ source_id: id })
    .select('id', 'chunk_index', 'content')) as { id: string; chunk_index: number; content: string }[];
  const result = syntheticResult(chunks, 2000, 5000);
  const domain = builtinDomains().find((candidate) => candidate.name === 'generic')!;
  for (const round of ['first commit', 're-commit (replaces the first)']) {
    const started = performance.now();
    const outcome = await commitExtraction({
      db: database,
      database: server.platform.databases.currentName(),
      sourceId: id,
      jobId: 'job_bench',
      domain,
      result,
      method: 'llm',
    });
    console.log(
      `commit, ${round}: ${outcome.nodesCreated.length} nodes, ${outcome.edgesCreated.length} edges, ${outcome.entityCitations + outcome.relationshipCitations} citations in ${((performance.now() - started) / 1000).toFixed(2)} s (target ≤ 2 s)`,
    );
  }
}

async function builtinEndToEnd(): Promise<void> {
  const passages = (
    JSON.parse(fs.readFileSync('/work/shared/testdata/eval/2wiki/corpus.json', 'utf8')) as {
      title: string;
      text: string;
    }[]
  ).map((entry) => `${entry.title}\n\n${entry.text}`);
  const parts: string[] = [];
  for (let index = 0, size = 0; size < builtinKb * 1024; index++) {
    parts.push(passages[index % passages.length]);
    size += passages[index % passages.length].length + 2;
  }
  const id = await upload('wiki.txt', parts.join('\n\n'), { auto_confirm: 'true', domain: 'biographical' });
  const indexed = await waitFor(id, ['extracting', 'extracted', 'committing', 'committed']);
  const started = performance.now();
  const done = await waitFor(id, ['committed'], 1_800_000);
  const seconds = (performance.now() - started) / 1000;
  const job = (await expectOk('GET', `/sources/${id}/extraction`)) as {
    total_chunks: number;
    stats: { finalize: Record<string, number> };
  };
  console.log(
    `builtin end to end, ${builtinKb} KB (${indexed.chunk_count} chunks, ${job.total_chunks} groups): extraction to commit ${seconds.toFixed(1)} s, ${done.extraction_entities_count} entities (${(done.extraction_entities_count / seconds).toFixed(1)} entities/s), ${done.extraction_relationships_count} relationships`,
  );
  console.log(`  finalisation: ${JSON.stringify(job.stats.finalize)}`);
}

try {
  if (parts.includes('pipeline')) await pipelineOverhead();
  if (parts.includes('commit')) await commitTime();
  if (parts.includes('builtin')) await builtinEndToEnd();
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
