import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRhizome } from '../support/cli.ts';
import { indexedText } from '../support/chats.ts';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

const lighthouseText =
  'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Its lamp was converted to electricity in 1932.';
const harbourText = 'The harbour of Kestrel Point silted up in 1904. Its pier was rebuilt in stone in 1911.';
const model = 'qwen3:8b';
const question = 'When was the Kestrel Point lighthouse built?';

/** A stream's text deltas, what they add up to, and the citations its finishing chunk carries. */
async function streamed(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const deltas: string[] = [];
  let citations: { index: number; filename: string }[] = [];
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    const finishing = chunk as unknown as { citations?: typeof citations };
    if (finishing.citations) citations = finishing.citations;
  }
  return { deltas, text: deltas.join(''), citations };
}

describe('streamed answers keep their citation markers', () => {
  let server: TestServer;
  let cookie: string;
  let key: string;
  let client: OpenAI;
  let ollama: FakeOllama;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const useProvider = async (provider: 'builtin' | 'localllm') => {
    const configured = await call('PATCH', '/settings', {
      llm: {
        chat_provider: provider,
        localllm_chat_model: model,
        localllm_extraction_model: model,
        localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: ollama.url, enabled: true }],
      },
      chat: { tool_approval: 'never-ask' },
    });
    expect(configured.status, configured.text).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await call('POST', '/auth/keys', { name: 'openai client' })).body as { key: string }).key;
    client = new OpenAI({ apiKey: key, baseURL: `${server.base}/openai/v1`, maxRetries: 0 });
    await indexedText(server, cookie, 'lighthouse.txt', lighthouseText);
    await indexedText(server, cookie, 'harbour.txt', harbourText);
    ollama = await startFakeOllama({ models: [model] });
  }, 90_000);
  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  /** The question asked twice: as a whole completion, then streamed. */
  async function askWholeThenStreamed() {
    const messages = [{ role: 'user' as const, content: question }];
    const whole = await client.chat.completions.create({ model: 'rhizome', messages });
    const stream = await streamed(await client.chat.completions.create({ model: 'rhizome', stream: true, messages }));
    return { whole, stream };
  }
  it('numbers the markers inline as the model streams them, however the deltas split them', async () => {
    await useProvider('localllm');
    // One passage per search: the lighthouse is C0, the harbour C1.
    const search = {
      deltas: [],
      toolCalls: [
        { name: 'search_chunks', arguments: { query: 'lighthouse engineer Miriam Holloway', limit: 1 } },
        { name: 'search_chunks', arguments: { query: 'harbour silted pier rebuilt', limit: 1 } },
      ],
    };
    const answer = {
      deltas: [
        'Built in 1871 [',
        '[cite:C0',
        ':S1|x.txt]',
        ']. The harbour silted up in 1904 [C',
        '1:S',
        '1]. Its lamp was electrified in 1932 [[cite:C0:S2|lighthouse.txt]]',
        '[C0:S2].',
      ],
    };
    ollama.scriptChat(search, answer, search, answer);
    const { whole, stream } = await askWholeThenStreamed();
    expect(stream.text).toBe(
      'Built in 1871 [1]. The harbour silted up in 1904 [2]. Its lamp was electrified in 1932 [1].' +
        '\n\nSources:\n[1] lighthouse.txt\n[2] harbour.txt',
    );
    expect(stream.text).toBe(whole.choices[0].message.content);
    expect(stream.citations).toEqual((whole as unknown as { citations: unknown[] }).citations);
    // Numbered while the model streamed, before the answer was complete (its last delta, then the sources).
    expect(stream.deltas.at(-1)).toMatch(/^\n\nSources:/);
    expect(stream.deltas.slice(0, -2).join('')).toContain('Built in 1871 [1]. The harbour silted up in 1904 [2].');
  });

  it('streams the builtin answer exactly as the whole completion reads, markers included', async () => {
    await useProvider('builtin');
    const { whole, stream } = await askWholeThenStreamed();
    expect(whole.choices[0].message.content).toMatch(/1871[^\n]*\[1\]/);
    expect(stream.text).toBe(whole.choices[0].message.content);
  });

  it('shows the markers in the answer `rhizome ask` writes, before its sources', async () => {
    await useProvider('builtin');
    const { code, output } = await runRhizome(['ask', question, '--url', server.url, '--api-key', key], server.dataDir);
    expect(code, output).toBe(0);
    expect(output).toMatch(/1871[^\n]*\[1\][^]*\n\nSources:\n\[1\] lighthouse\.txt/);
  }, 60_000);
});
