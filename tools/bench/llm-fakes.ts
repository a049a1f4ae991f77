import fs from 'node:fs';
import { startFakeAnthropic } from '../../tests/support/fakes/anthropic.ts';
import { startFakeGemini } from '../../tests/support/fakes/gemini.ts';
import { startFakeOllama } from '../../tests/support/fakes/ollama.ts';
import { startFakeOpenAi } from '../../tests/support/fakes/openai.ts';

// The fake model servers of the llm-overhead benchmark, in their own process so the client's timings
// do not include the servers' work.
const model = 'bench-model';
const fakes = {
  localllm: await startFakeOllama({ models: [model] }),
  openai: await startFakeOpenAi({ models: [model] }),
  anthropic: await startFakeAnthropic({ models: [model] }),
  gemini: await startFakeGemini({ models: [model] }),
};
fs.writeFileSync(
  process.env.BENCH_FAKES_FILE!,
  JSON.stringify(Object.fromEntries(Object.entries(fakes).map(([name, fake]) => [name, fake.url]))),
);
console.log('FAKES READY');
