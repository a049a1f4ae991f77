/**
 * bench:chat (issue 9): with an instant fake model server (fake Ollama over real HTTP),
 * 1. the time from `POST /chats/{id}/send` to the first answer text on the chat's event stream (target
 *    p95 ≤ 100 ms), as a browser sees it: send, then open the events. The first `content` event
 *    normally; when the instant answer was already finished by the time the stream opened, the idle
 *    chat's `done` carrying it (counted separately);
 * 2. fan-out: 100 listeners connect to one chat while its answer waits on the model (a 2 s delay
 *    before the model's first byte), then 300 deltas stream; every listener must receive every
 *    content delta, in order, and the final `done`.
 */
import { startFakeOllama } from '../../tests/support/fakes/ollama.ts';
import { readEvents, type ChatEventFrame } from '../../tests/support/chats-sse.ts';
import { startBenchServer } from './api-client.ts';

const model = 'bench-model';
const warmup = 10;
const samples = Number(process.env.BENCH_CHAT_SAMPLES ?? 100);
const listeners = 100;
const fanOutDeltas = 300;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

const ollama = await startFakeOllama({ models: [model] });
const bench = await startBenchServer('chat');
await bench.expectOk('PATCH', '/settings', {
  llm: {
    chat_provider: 'localllm',
    localllm_chat_model: model,
    localllm_extraction_model: model,
    localllm_instances: [{ id: 'fake', name: 'Fake', base_url: ollama.url, enabled: true }],
  },
});

async function newChat(): Promise<string> {
  return ((await bench.expectOk('POST', '/chats', { title: 'bench' }, 201)) as { id: string }).id;
}

/** One turn: send, open the events, stop at the first answer text; ms from the send and which event carried it. */
async function firstContent(chatId: string): Promise<{ ms: number; via: string }> {
  const sentAt = performance.now();
  await bench.expectOk(
    'POST',
    `/chats/${chatId}/send`,
    { content: 'What does the knowledge base say about rivers?' },
    202,
  );
  let first: { ms: number; via: string } | null = null;
  await readEvents(bench, bench.cookie, chatId, (event) => {
    if (event.type !== 'content' && event.type !== 'done') return false;
    first = { ms: performance.now() - sentAt, via: event.type };
    return true;
  });
  if (!first) throw new Error('no answer event');
  // Let the turn finish so the next sample starts on an idle llm lane.
  await readEvents(bench, bench.cookie, chatId);
  return first;
}

const chats = await Promise.all(Array.from({ length: warmup + samples }, newChat));
const timings: number[] = [];
let viaDone = 0;
for (const [index, chatId] of chats.entries()) {
  const { ms, via } = await firstContent(chatId);
  if (index < warmup) continue;
  timings.push(ms);
  if (via === 'done') viaDone += 1;
}
console.log(
  `send → first answer text on the event stream (${samples} turns, instant fake model, ${warmup} warm-up turns):`,
);
console.log(
  `  p50 ${percentile(timings, 50).toFixed(1)} ms   p95 ${percentile(timings, 95).toFixed(1)} ms   max ${Math.max(...timings).toFixed(1)} ms   (target p95 ≤ 100 ms)`,
);
console.log(
  `  ${samples - viaDone} via a content event, ${viaDone} via the finished answer's done (turn over before the stream opened)`,
);

const fanOutChat = await newChat();
ollama.scriptChat({ deltas: Array.from({ length: fanOutDeltas }, (_, index) => `d${index} `) });
ollama.setDelay(2000);
await bench.expectOk('POST', `/chats/${fanOutChat}/send`, { content: 'Stream a long answer.' }, 202);
let connected = 0;
let allConnected: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (allConnected = resolve));
const started = performance.now();
const reads = Array.from({ length: listeners }, () =>
  readEvents(bench, bench.cookie, fanOutChat, undefined, 60_000, async () => {
    connected += 1;
    if (connected === listeners) allConnected();
  }),
);
await ready;
const connectedAt = performance.now();
const results = await Promise.all(reads);
const doneAt = performance.now();
ollama.setDelay(0);

const deltas = Array.from({ length: fanOutDeltas }, (_, index) => `d${index} `);
const expected = [...deltas.map((delta) => `content:${delta}`), 'done'].join('|');
// Events of the turn from its first content on (context_info may precede a listener's connection).
const received = (events: ChatEventFrame[]) =>
  events
    .filter((event) => event.type === 'content' || event.type === 'done')
    .map((event) => (event.type === 'content' ? `content:${String(event.delta)}` : 'done'));
const complete = results.filter((read) => read.ended && received(read.events).join('|') === expected);
const lost = results.reduce((sum, read) => sum + Math.max(0, fanOutDeltas + 1 - received(read.events).length), 0);
console.log(`fan-out: ${listeners} listeners on one chat, ${fanOutDeltas} content deltas + done each:`);
console.log(`  ${complete.length}/${listeners} listeners received every event in order; lost events: ${lost}`);
console.log(
  `  all connected in ${((connectedAt - started) / 1000).toFixed(2)} s; last listener done ${(doneAt - connectedAt).toFixed(0)} ms after that (includes the model's 2 s delay)`,
);

await bench.server.stop();
await ollama.close();
if (complete.length !== listeners) process.exitCode = 1;
