import { describe, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { createAnthropicChatAdapter } from '../../src/providers/cloud/anthropic.ts';
import { createGeminiChatAdapter } from '../../src/providers/cloud/gemini.ts';
import { createGeminiEmbeddingAdapter } from '../../src/providers/cloud/gemini-embeddings.ts';
import { createOpenAiChatAdapter } from '../../src/providers/cloud/openai.ts';
import { createOpenAiEmbeddingAdapter } from '../../src/providers/cloud/openai-embeddings.ts';
import type { EmbeddingAdapter } from '../../src/providers/embeddings/port.ts';
import { embedWithPolicy } from '../../src/providers/embeddings/embed-policy.ts';
import { completeWithPolicy, type CallPolicy } from '../../src/providers/llm/call-policy.ts';
import { LlmError } from '../../src/providers/llm/errors.ts';
import type { ChatMessage, LlmAdapter } from '../../src/providers/llm/port.ts';
import { startFakeAnthropic } from '../../../../tests/support/fakes/anthropic.ts';
import { fakeReply, type FakeProviderControls } from '../../../../tests/support/fakes/controls.ts';
import { startFakeGemini } from '../../../../tests/support/fakes/gemini.ts';
import { startFakeOpenAi } from '../../../../tests/support/fakes/openai.ts';
import { describeAdapterContract } from '../../../../tests/support/llm-adapter-contract.ts';

const defaults = defaultSettings();
/** Not catalogued, so the adapters learn its dimensions from the fake's 8-dimensional answers. */
const embeddingModel = 'fake-embedding';

interface ProviderCase {
  name: string;
  start(): Promise<FakeProviderControls>;
  model: string;
  key: string | null;
  chat(url: string, key: string | null): LlmAdapter;
  embeddings?(url: string, key: string | null): EmbeddingAdapter;
  /** The headers every request carries for `key`. */
  authHeaders: Record<string, string>;
  /** Where the system prompt lands in the request body. */
  systemOf(body: Record<string, unknown>): unknown;
  expectedSystem: unknown;
  /** The assistant tool call and the tool result of `toolConversation`, in the provider's format. */
  expectedToolTurns: unknown[];
  toolTurnsOf(body: Record<string, unknown>): unknown[];
  /** The image part of the first user message, and what it must be for a PNG with this base64 data. */
  imagePartOf(body: Record<string, unknown>): unknown;
  expectedImagePart(base64: string): unknown;
}

type Parts = { content?: unknown; parts?: unknown }[];
const partsOf = (list: unknown, at: number, key: 'content' | 'parts') =>
  (list as Parts)[at][key] as Record<string, unknown>[];

const openAiCase: ProviderCase = {
  name: 'openai',
  start: () => startFakeOpenAi(),
  model: 'gpt-4.1',
  key: 'sk-test',
  chat: (url, key) => createOpenAiChatAdapter({ openai_base_url: url, openai_api_key: key }, { server: 'openai' }),
  embeddings: (url, key) => createOpenAiEmbeddingAdapter({ model: embeddingModel, apiKey: key, baseUrl: url }),
  authHeaders: { authorization: 'Bearer sk-test' },
  systemOf: (body) => (body.messages as unknown[])[0],
  expectedSystem: { role: 'system', content: 'You are terse.' },
  toolTurnsOf: (body) => (body.messages as unknown[]).slice(2),
  expectedToolTurns: [
    {
      role: 'assistant',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'search_graph', arguments: '{"query":"alpha"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: 'alpha is a letter' },
  ],
  imagePartOf: (body) => partsOf(body.messages, 1, 'content').find((part) => part.type === 'image_url'),
  expectedImagePart: (base64) => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } }),
};

const cases: ProviderCase[] = [
  openAiCase,
  {
    ...openAiCase,
    name: 'openai-compatible',
    start: () => startFakeOpenAi({ models: ['qwen3:8b'] }),
    model: 'qwen3:8b',
    key: null,
    chat: (url, key) => createOpenAiChatAdapter({ openai_base_url: url, openai_api_key: key }),
    authHeaders: {},
  },
  {
    name: 'anthropic',
    start: () => startFakeAnthropic(),
    model: 'claude-sonnet-4-5',
    key: 'sk-ant-test',
    chat: (url, key) => createAnthropicChatAdapter({ anthropic_base_url: url, anthropic_api_key: key }),
    authHeaders: { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
    systemOf: (body) => body.system,
    expectedSystem: [{ type: 'text', text: 'You are terse.' }],
    toolTurnsOf: (body) => (body.messages as unknown[]).slice(1),
    expectedToolTurns: [
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_a', name: 'search_graph', input: { query: 'alpha' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a', content: 'alpha is a letter' }] },
    ],
    imagePartOf: (body) => partsOf(body.messages, 0, 'content').find((part) => part.type === 'image'),
    expectedImagePart: (base64) => ({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: base64 },
    }),
  },
  {
    name: 'gemini',
    start: () => startFakeGemini(),
    model: 'gemini-2.5-pro',
    key: 'gm-test',
    chat: (url, key) => createGeminiChatAdapter({ gemini_base_url: url, gemini_api_key: key }),
    embeddings: (url, key) => createGeminiEmbeddingAdapter({ model: embeddingModel, apiKey: key, baseUrl: url }),
    authHeaders: { 'x-goog-api-key': 'gm-test' },
    systemOf: (body) => body.systemInstruction,
    expectedSystem: { parts: [{ text: 'You are terse.' }] },
    toolTurnsOf: (body) => (body.contents as unknown[]).slice(1),
    expectedToolTurns: [
      { role: 'model', parts: [{ functionCall: { name: 'search_graph', args: { query: 'alpha' } } }] },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'search_graph',
              response: { name: 'search_graph', content: 'alpha is a letter' },
            },
          },
        ],
      },
    ],
    imagePartOf: (body) => partsOf(body.contents, 0, 'parts').find((part) => part.inlineData),
    expectedImagePart: (base64) => ({ inlineData: { mimeType: 'image/png', data: base64 } }),
  },
];

for (const provider of cases) {
  let fake: FakeProviderControls | undefined;
  describeAdapterContract(
    provider.name,
    async () => {
      fake = await provider.start();
      return {
        fake,
        model: provider.model,
        chat: provider.chat(fake.url, provider.key),
        embeddings: provider.embeddings?.(fake.url, provider.key),
      };
    },
    async () => {
      await fake?.close();
      fake = undefined;
    },
  );
}

const policy: CallPolicy = {
  maxRetries: 0,
  retryDelaysMs: [10],
  maxDelayMs: 5000,
  timeoutMs: 10_000,
  idleTimeoutMs: 5000,
};

function chatRequest(provider: ProviderCase, messages: ChatMessage[], withTools = false) {
  return {
    operation: 'chat' as const,
    model: provider.model,
    system: 'You are terse.',
    messages,
    temperature: 0.1,
    maxTokens: 256,
    tools: withTools
      ? [
          {
            name: 'search_graph',
            description: 'Search the graph',
            parameters: { type: 'object', properties: { query: { type: 'string' } } },
          },
        ]
      : undefined,
  };
}

const toolConversation: ChatMessage[] = [
  { role: 'user', content: 'find alpha' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_a', name: 'search_graph', arguments: { query: 'alpha' } }],
  },
  { role: 'tool', toolCallId: 'call_a', toolName: 'search_graph', content: 'alpha is a letter' },
];

async function withFake(provider: ProviderCase, run: (fake: FakeProviderControls) => Promise<void>): Promise<void> {
  const fake = await provider.start();
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

const firstBody = (fake: FakeProviderControls) => fake.requests[0].body as Record<string, unknown>;

describe.concurrent.each(cases)('$name wire format', (provider) => {
  it('sends the API key in the provider’s header on every request', ({ expect }) =>
    withFake(provider, async (fake) => {
      const chat = provider.chat(fake.url, provider.key);
      await completeWithPolicy(chat, chatRequest(provider, [{ role: 'user', content: 'hi' }]), policy);
      await chat.check([provider.model], AbortSignal.timeout(5000));
      if (provider.embeddings) await embedWithPolicy(provider.embeddings(fake.url, provider.key), ['hi'], policy);
      expect(fake.requests.length).toBe(provider.embeddings ? 3 : 2);
      for (const { headers } of fake.requests) {
        expect(headers).toMatchObject(provider.authHeaders);
        if (!provider.key) expect(headers.authorization).toBeUndefined();
      }
    }));

  it('places the system prompt where the provider expects it', ({ expect }) =>
    withFake(provider, async (fake) => {
      await completeWithPolicy(
        provider.chat(fake.url, provider.key),
        chatRequest(provider, [{ role: 'user', content: 'hi' }]),
        policy,
      );
      expect(provider.systemOf(firstBody(fake))).toEqual(provider.expectedSystem);
    }));

  it('sends an assistant tool call and its result in the provider’s format', ({ expect }) =>
    withFake(provider, async (fake) => {
      const result = await completeWithPolicy(
        provider.chat(fake.url, provider.key),
        chatRequest(provider, toolConversation, true),
        policy,
      );
      expect(result.text).toBe(fakeReply('find alpha'));
      expect(provider.toolTurnsOf(firstBody(fake))).toMatchObject(provider.expectedToolTurns);
    }));

  it('sends an image as the provider’s image part, its bytes intact', ({ expect }) =>
    withFake(provider, async (fake) => {
      const image = Uint8Array.from({ length: 1000 }, (_, index) => (index * 31 + 7) % 256);
      const result = await completeWithPolicy(
        provider.chat(fake.url, provider.key),
        chatRequest(provider, [
          { role: 'user', content: 'describe', images: [{ mediaType: 'image/png', data: image }] },
        ]),
        policy,
      );
      expect(result.text).toBe(fakeReply('describe', [image]));
      expect(provider.imagePartOf(firstBody(fake))).toEqual(
        provider.expectedImagePart(Buffer.from(image).toString('base64')),
      );
    }));

  it('waits at least as long as Retry-After before retrying a 429', ({ expect }) =>
    withFake(provider, async (fake) => {
      fake.failNext(429, 1, { 'retry-after': '1' });
      const started = performance.now();
      const result = await completeWithPolicy(
        provider.chat(fake.url, provider.key),
        chatRequest(provider, [{ role: 'user', content: 'again' }]),
        { ...policy, maxRetries: 1 },
      );
      expect(result.text).toBe(fakeReply('again'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    }));

  it('reports a server it cannot reach in its check', async ({ expect }) => {
    const fake = await provider.start();
    await fake.close();
    const check = await provider.chat(fake.url, provider.key).check([provider.model], AbortSignal.timeout(5000));
    expect(check).toMatchObject({ verified: false, missingModels: [] });
    expect(check.message).toMatch(/cannot reach/);
  });
});

describe.concurrent.each(cases.filter((provider) => provider.key))('$name without an API key', (provider) => {
  it('fails calls and checks with a clear message before any request', ({ expect }) =>
    withFake(provider, async (fake) => {
      const chat = provider.chat(fake.url, null);
      const error = await completeWithPolicy(
        chat,
        chatRequest(provider, [{ role: 'user', content: 'hi' }]),
        policy,
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LlmError);
      expect(error).toMatchObject({ kind: 'auth', message: expect.stringMatching(/API key is set/) });
      const check = await chat.check([provider.model], AbortSignal.timeout(5000));
      expect(check).toMatchObject({ verified: false, message: expect.stringMatching(/no .* API key is set/) });
      expect(fake.requests).toHaveLength(0);
    }));
});

describe.concurrent('cloud embeddings', () => {
  it('honours Retry-After on a 429', ({ expect }) =>
    withFake(openAiCase, async (fake) => {
      fake.failNext(429, 1, { 'retry-after': '1' });
      const started = performance.now();
      await embedWithPolicy(openAiCase.embeddings!(fake.url, 'sk-test'), ['alpha'], { ...policy, maxRetries: 1 });
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    }));

  it('knows the dimensions of catalogued models before any call and batches 64 texts unless told otherwise', ({
    expect,
  }) => {
    const openAi = createOpenAiEmbeddingAdapter({
      model: 'text-embedding-3-large',
      apiKey: 'key',
      baseUrl: defaults.llm.openai_base_url,
    });
    const gemini = createGeminiEmbeddingAdapter({
      model: 'gemini-embedding-001',
      apiKey: 'key',
      baseUrl: defaults.llm.gemini_base_url,
      maxBatch: 100,
    });
    expect([openAi.dimensions(), openAi.maxBatch]).toEqual([3072, 64]);
    expect([gemini.dimensions(), gemini.maxBatch]).toEqual([3072, 100]);
  });

  it('rejects vectors of another size than the model’s', ({ expect }) =>
    withFake(openAiCase, async (fake) => {
      const adapter = createOpenAiEmbeddingAdapter({
        model: 'text-embedding-3-small',
        apiKey: 'sk-test',
        baseUrl: fake.url,
      });
      const error = await embedWithPolicy(adapter, ['alpha'], policy).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        kind: 'bad_request',
        message: expect.stringMatching(/8-dimensional vectors, expected 1536/),
      });
    }));

  it('are ready when the key they need is set, without any request', async ({ expect }) => {
    const signal = AbortSignal.timeout(1000);
    const checks = await Promise.all([
      createOpenAiEmbeddingAdapter({
        model: 'text-embedding-3-small',
        apiKey: null,
        baseUrl: defaults.llm.openai_base_url,
      }).check(signal),
      createGeminiEmbeddingAdapter({
        model: 'gemini-embedding-001',
        apiKey: null,
        baseUrl: defaults.llm.gemini_base_url,
      }).check(signal),
      createOpenAiEmbeddingAdapter({ model: 'nomic-embed-text', apiKey: null, baseUrl: 'http://127.0.0.1:9/v1' }).check(
        signal,
      ),
      createGeminiEmbeddingAdapter({
        model: 'gemini-embedding-001',
        apiKey: 'key',
        baseUrl: defaults.llm.gemini_base_url,
      }).check(signal),
    ]);
    expect(checks.map((check) => check.ready)).toEqual([false, false, true, true]);
    expect(checks[0].message).toMatch(/no OpenAI API key is set/);
  });
});
