/**
 * bench:openai (issue 24): time to the first answer text, same server, same instant fake model (fake
 * Ollama over real HTTP), alternating turns:
 * - native: POST /chats, POST /chats/{id}/send, then the chat's events until the first `content`;
 * - OpenAI-compatible: POST /openai/v1/chat/completions with stream: true until the first chunk with text.
 * Target: the OpenAI-compatible p50 at most 1.2× the native one.
 */
import { startFakeOllama } from '../../tests/support/fakes/ollama.ts';
import { readEvents } from '../../tests/support/chats-sse.ts';
import { readEventStream } from '@rhizome/client';
import { startBenchServer } from './api-client.ts';

const model = 'bench-model';
const warmup = 5;
const samples = Number(process.env.BENCH_OPENAI_SAMPLES ?? 40);
const question = 'What does the knowledge base say about rivers?';

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

const ollama = await startFakeOllama({ models: [model] });
const bench = await startBenchServer('openai');
await bench.expectOk('PATCH', '/settings', {
  llm: {
    chat_provider: 'localllm',
    localllm_chat_model: model,
    localllm_extraction_model: model,
    localllm_instances: [{ id: 'fake', name: 'Fake', base_url: ollama.url, enabled: true }],
  },
});
const { key } = (await bench.expectOk('POST', '/auth/keys', { name: 'bench' }, 201)) as { key: string };

async function native(): Promise<number> {
  const started = performance.now();
  const { id } = (await bench.expectOk('POST', '/chats', { title: 'bench' }, 201)) as { id: string };
  await bench.expectOk('POST', `/chats/${id}/send`, { content: question }, 202);
  let first = 0;
  await readEvents(bench, bench.cookie, id, (event) => {
    if (event.type !== 'content' && event.type !== 'done') return false;
    first ||= performance.now() - started;
    return event.type === 'done';
  });
  return first;
}

async function compatible(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${bench.base}/openai/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'rhizome', stream: true, messages: [{ role: 'user', content: question }] }),
  });
  if (!response.ok || !response.body) throw new Error(`completions: ${response.status} ${await response.text()}`);
  let first = 0;
  await readEventStream(response.body, (data) => {
    if (data === '[DONE]' || first) return;
    const chunk = JSON.parse(data) as { choices: { delta: { content?: string } }[] };
    if (chunk.choices[0]?.delta.content) first = performance.now() - started;
  });
  return first;
}

const timings = { native: [] as number[], compatible: [] as number[] };
for (let index = 0; index < warmup + samples; index++) {
  // Alternating which goes first, so neither always runs on a warmer server.
  let nativeMs: number;
  let compatibleMs: number;
  if (index % 2) {
    compatibleMs = await compatible();
    nativeMs = await native();
  } else {
    nativeMs = await native();
    compatibleMs = await compatible();
  }
  if (index < warmup) continue;
  timings.native.push(nativeMs);
  timings.compatible.push(compatibleMs);
}
const ratio = percentile(timings.compatible, 50) / percentile(timings.native, 50);
console.log(`time to the first answer text (${samples} turns each, instant fake model, ${warmup} warm-up turns):`);
for (const [name, values] of Object.entries(timings)) {
  console.log(
    `  ${name.padEnd(10)} p50 ${percentile(values, 50).toFixed(1)} ms   p95 ${percentile(values, 95).toFixed(1)} ms`,
  );
}
console.log(`  OpenAI-compatible / native p50: ${ratio.toFixed(2)}× (target ≤ 1.2×) ${ratio <= 1.2 ? 'OK' : 'OVER'}`);
await bench.server.stop();
await ollama.close();
