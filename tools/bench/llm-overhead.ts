import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAnthropicChatAdapter } from '@rhizome/core/providers';
import { createGeminiChatAdapter } from '@rhizome/core/providers';
import { createOpenAiChatAdapter } from '@rhizome/core/providers';
import { completeWithPolicy } from '@rhizome/core/providers';
import type { LlmAdapter } from '@rhizome/core/providers';
import { createLocalLlmChatAdapter } from '@rhizome/core/providers';
import { LocalLlmPool } from '@rhizome/core/providers';
import { defaultSettings } from '@rhizome/contracts/settings';
import { pinLoadGenerator, startProcess, stopProcess } from './harness.ts';

// Per-call cost of our adapters (AI SDK + call policy) over a bare fetch of the same streamed answer
// from the same fake server: the fakes run in another process, calls are sequential.
const model = 'bench-model';
const content = 'Summarise the relationship between Marie Curie and the University of Paris.';
const callsPerRound = Number(process.env.BENCH_CALLS ?? 400);
const rounds = 5;

interface Subject {
  name: string;
  adapter: LlmAdapter;
  raw(): Promise<unknown>;
}

const pinning = pinLoadGenerator();
const fakesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-bench-')), 'fakes.json');
const fakes = await startProcess('tools/bench/llm-fakes.ts', { BENCH_FAKES_FILE: fakesFile }, /FAKES READY/);
const urls = JSON.parse(fs.readFileSync(fakesFile, 'utf8')) as Record<string, string>;

const llm = defaultSettings().llm;
const json = { 'content-type': 'application/json' };
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) }).then((response) =>
    response.text(),
  );
const messages = [{ role: 'user', content }];

const subjects: Subject[] = [
  {
    name: 'localllm',
    adapter: createLocalLlmChatAdapter(
      new LocalLlmPool({
        instances: [{ id: 'bench', name: 'bench', base_url: urls.localllm, enabled: true, healthy: true }],
        strategy: 'round_robin',
      }),
      { ...llm, thinking_for_chat: false },
    ),
    raw: () => post(`${urls.localllm}/api/chat`, { model, messages, stream: true }),
  },
  {
    name: 'openai',
    adapter: createOpenAiChatAdapter(
      { openai_api_key: 'sk-bench', openai_base_url: urls.openai },
      { server: 'openai' },
    ),
    raw: () =>
      post(
        `${urls.openai}/chat/completions`,
        { model, messages, stream: true, stream_options: { include_usage: true } },
        { authorization: 'Bearer sk-bench' },
      ),
  },
  {
    name: 'anthropic',
    adapter: createAnthropicChatAdapter({ anthropic_api_key: 'sk-bench', anthropic_base_url: urls.anthropic }),
    raw: () =>
      post(
        `${urls.anthropic}/messages`,
        { model, messages, max_tokens: 256, stream: true },
        { 'x-api-key': 'sk-bench', 'anthropic-version': '2023-06-01' },
      ),
  },
  {
    name: 'gemini',
    adapter: createGeminiChatAdapter({ gemini_api_key: 'bench', gemini_base_url: urls.gemini }),
    raw: () =>
      post(
        `${urls.gemini}/models/${model}:streamGenerateContent?alt=sse`,
        { contents: [{ role: 'user', parts: [{ text: content }] }] },
        { 'x-goog-api-key': 'bench' },
      ),
  },
];

const policy = { maxRetries: 0, retryDelaysMs: [0], maxDelayMs: 0, timeoutMs: 30_000, idleTimeoutMs: 30_000 };
const viaAdapter = (adapter: LlmAdapter) =>
  completeWithPolicy(
    adapter,
    { operation: 'chat', model, messages: [{ role: 'user', content }], temperature: 0.1, maxTokens: 256 },
    policy,
  );

async function perCallMs(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < callsPerRound; i++) await call();
  return (performance.now() - started) / callsPerRound;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  `llm adapter overhead: ${callsPerRound} sequential calls per round, ${rounds} rounds, median round (${pinning})`,
);
try {
  for (const subject of subjects) {
    await perCallMs(subject.raw);
    await perCallMs(() => viaAdapter(subject.adapter));
    const raw: number[] = [];
    const adapter: number[] = [];
    for (let round = 0; round < rounds; round++) {
      raw.push(await perCallMs(subject.raw));
      adapter.push(await perCallMs(() => viaAdapter(subject.adapter)));
    }
    const overhead = median(adapter.map((value, index) => value - raw[index]));
    console.log(
      `  ${subject.name.padEnd(10)} bare fetch ${median(raw).toFixed(2)} ms  adapter ${median(adapter).toFixed(2)} ms  overhead ${overhead.toFixed(2)} ms/call (target <= 2)`,
    );
  }
} finally {
  await stopProcess(fakes);
}
