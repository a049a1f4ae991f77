// Benchmark (issue 7): extraction pipeline overhead per group with an instant fake LLM (target ≤ 10 ms
// a group, excluding the model), commit time of a source with 2,000 entities / 5,000 relationships
// (target ≤ 2 s), and the builtin provider end to end on a 1 MB text (entities/s).
// BENCH_GROUPS (default 200) and BENCH_BUILTIN_KB (default 1024) scale it.
import fs from 'node:fs';
import path from 'node:path';
import { commitExtraction } from '@rhizome/core/extraction';
import type { Evidence, FinalizeResult } from '@rhizome/core/extraction';
import { builtinDomains } from '@rhizome/core/sources';
import { startBenchServer } from './api-client.ts';
import { seededRandom, startProcess, stopProcess } from './harness.ts';

const groupCount = Number(process.env.BENCH_GROUPS ?? 200);
const builtinKb = Number(process.env.BENCH_BUILTIN_KB ?? 1024);
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

async function pipelineOverhead(): Promise<void> {
  const urlFile = path.join(dataDir, 'fake-url');
  const fake = await startProcess(
    'tools/bench/servers/extraction-ollama.ts',
    { BENCH_GROUPS: String(groupCount), BENCH_URL_FILE: urlFile },
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
    // Twelve copies of the paragraph (about 600 words) make about one extraction group (900 tokens).
    const id = await upload('groups.txt', Array.from({ length: groupCount * 12 }, () => paragraph).join('\n\n'), {
      auto_confirm: 'true',
      domain: 'biographical',
      filtering_mode: 'unfiltered',
    });
    await waitFor(id, ['extracting', 'extracted', 'committing', 'committed']);
    const started = performance.now();
    const done = await waitFor(id, ['committed']);
    const seconds = (performance.now() - started) / 1000;
    const job = (await expectOk('GET', `/sources/${id}/extraction`)) as { total_chunks: number };
    const { extraction_job_id: jobId } = (await (await db())('sources').where({ id }).first('extraction_job_id')) as {
      extraction_job_id: string;
    };
    const rows = (await (await db())('extraction_groups').where({ job_id: jobId }).select('duration_ms')) as {
      duration_ms: number;
    }[];
    const groupMs = rows.reduce((sum, row) => sum + row.duration_ms, 0);
    const since = new Date(Date.now() - 3_600_000);
    const model = (await server.platform.providers.metrics.stats(since)).find(
      (row) => row.operation === 'extraction' && row.provider === 'localllm',
    )!;
    const modelMs = model.avg_duration_ms * model.calls;
    const overhead = (groupMs - modelMs) / job.total_chunks;
    console.log(
      `fake-LLM pipeline: ${job.total_chunks} groups, ${model.calls} model calls, extraction to commit ${seconds.toFixed(1)} s (${(job.total_chunks / seconds).toFixed(0)} groups/s end to end, queue pickups, finalisation and commit included)`,
    );
    console.log(
      `  per group: ${(groupMs / job.total_chunks).toFixed(1)} ms in the task, of which model calls ${(modelMs / job.total_chunks).toFixed(1)} ms → pipeline overhead ${overhead.toFixed(1)} ms/group (target ≤ 10)`,
    );
    console.log(
      `  committed ${done.extraction_entities_count} entities, ${done.extraction_relationships_count} relationships`,
    );
    await expectOk('PATCH', '/settings', { llm: { chat_provider: 'builtin' } });
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
  await pipelineOverhead();
  await commitTime();
  await builtinEndToEnd();
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
