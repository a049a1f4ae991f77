// Benchmark (issues 7 and 36): extraction pipeline overhead per group with an instant fake LLM (target ≤ 10 ms
// a group, excluding the model), with attempts recorded against none kept (recording adds ≤ 5 %), commit
// time of a source with 2,000 entities / 5,000 relationships (target ≤ 2 s), and the builtin provider end
// to end on a 1 MB text (entities/s). BENCH_GROUPS (default 200), BENCH_ROUNDS (alternating rounds of each
// mode, default 3) and BENCH_BUILTIN_KB (default 1024) scale it; BENCH_PARTS (e.g. "pipeline") picks parts.
import fs from 'node:fs';
import path from 'node:path';
import { commitExtraction } from '@rhizome/core/extraction';
import type { Evidence, FinalizeResult } from '@rhizome/core/extraction';
import { builtinDomains } from '@rhizome/core/sources';
import { startBenchServer } from './api-client.ts';
import { seededRandom, startProcess, stopProcess } from './harness.ts';

const groupCount = Number(process.env.BENCH_GROUPS ?? 200);
const builtinKb = Number(process.env.BENCH_BUILTIN_KB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
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
  /** Per group: this process's CPU time while the groups ran (the model runs in another process). */
  cpuMs: number;
  modelMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * One source of `groupCount` groups through the instant fake model, its attempts recorded (the default
 * retention) or not (`source_processing.attempt_retention_days` 0 keeps none): the pipeline's own time
 * per group.
 */
async function pipelineRound(recording: boolean): Promise<RoundFigures> {
  await expectOk('PATCH', '/settings', { source_processing: { attempt_retention_days: recording ? 14 : 0 } });
  // Twelve copies of the paragraph (about 600 words) make about one extraction group (900 tokens).
  const id = await upload('groups.txt', Array.from({ length: groupCount * 12 }, () => paragraph).join('\n\n'), {
    auto_confirm: 'true',
    domain: 'biographical',
    filtering_mode: 'unfiltered',
  });
  await waitFor(id, ['extracting', 'extracted', 'committing', 'committed']);
  const cpu = process.cpuUsage();
  await waitFor(id, ['extracted', 'committing', 'committed']);
  const { user, system } = process.cpuUsage(cpu);
  await waitFor(id, ['committed']);
  const database = await db();
  const { extraction_job_id: jobId } = (await database('sources').where({ id }).first('extraction_job_id')) as {
    extraction_job_id: string;
  };
  const rows = (await database('extraction_groups').where({ job_id: jobId }).select('duration_ms', 'task_id')) as {
    duration_ms: number;
    task_id: string;
  }[];
  let taskMs = 0;
  for (const row of rows) {
    const task = (await server.platform.tasks.get(row.task_id))!;
    taskMs += Date.parse(task.completed_at!) - Date.parse(task.started_at!);
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
    groups: rows.length,
    overheadMs: per(taskMs - model.duration_ms),
    groupOverheadMs: per(groupMs - model.duration_ms),
    cpuMs: per((user + system) / 1000),
    modelMs: per(model.duration_ms),
  };
}

/**
 * The pipeline's overhead per group with an instant fake model, with attempts recorded and without, in
 * alternating rounds of the same run (after a warm-up round), as medians and their ratio.
 */
async function pipelineOverhead(): Promise<void> {
  const urlFile = path.join(dataDir, 'fake-url');
  const fake = await startProcess(
    'tools/bench/servers/extraction-ollama.ts',
    { BENCH_GROUPS: String(groupCount * (2 * rounds + 1)), BENCH_URL_FILE: urlFile },
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
    await pipelineRound(true);
    const figures: Record<'on' | 'off', RoundFigures[]> = { on: [], off: [] };
    for (let round = 0; round < rounds; round++) {
      for (const recording of round % 2 ? [true, false] : [false, true])
        figures[recording ? 'on' : 'off'].push(await pipelineRound(recording));
    }
    const medians = (mode: 'on' | 'off') => ({
      overhead: median(figures[mode].map((round) => round.overheadMs)),
      group: median(figures[mode].map((round) => round.groupOverheadMs)),
      cpu: median(figures[mode].map((round) => round.cpuMs)),
      model: median(figures[mode].map((round) => round.modelMs)),
    });
    const on = medians('on');
    const off = medians('off');
    const ratio = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)} %`;
    console.log(
      `fake-LLM pipeline, ${figures.on[0].groups} groups a source, medians of ${rounds} alternating rounds each (after a warm-up): per group`,
    );
    for (const [label, mode] of [
      ['attempts recorded', on],
      ['none kept (retention 0)', off],
    ] as const)
      console.log(
        `  ${label.padEnd(24)} overhead ${mode.overhead.toFixed(2)} ms (model calls ${mode.model.toFixed(2)} ms aside; ${mode.group.toFixed(2)} ms by the group's own duration), CPU ${mode.cpu.toFixed(2)} ms`,
      );
    console.log(
      `  recording adds ${ratio(on.overhead, off.overhead)} to the overhead (target ≤ 5 %; overhead target ≤ 10 ms), ${ratio(on.group, off.group)} by the groups' durations, ${ratio(on.cpu, off.cpu)} CPU`,
    );
    console.log(
      `  rounds (on/off overhead ms): ${figures.on.map((round) => round.overheadMs.toFixed(2)).join(' ')} / ${figures.off.map((round) => round.overheadMs.toFixed(2)).join(' ')}`,
    );
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
