import { describe, expect, it } from 'vitest';
import { completeWithPolicy, streamWithPolicy, type CallPolicy } from '@rhizome/core/providers';
import { LlmError } from '@rhizome/core/providers';
import type { ChatStreamEvent, LlmAdapter } from '@rhizome/core/providers';
import type { EmbeddingAdapter } from '@rhizome/core/providers';
import { embedWithPolicy } from '@rhizome/core/providers';
import { fakeEmbedding, fakeEmbeddingDimensions, fakeReply, type FakeProviderControls } from './fakes/controls.ts';

export interface ContractSubject {
  fake: FakeProviderControls;
  chat: LlmAdapter;
  /** The model the fake knows; omitted providers have no embedding adapter. */
  model: string;
  embeddings?: EmbeddingAdapter;
}

const policy: CallPolicy = { maxRetries: 2, retryDelaysMs: [10], maxDelayMs: 50, timeoutMs: 5000, idleTimeoutMs: 5000 };

function request(content: string, extra: { tools?: boolean; signal?: AbortSignal } = {}) {
  return {
    operation: 'chat' as const,
    model: '',
    system: 'You are terse.',
    messages: [{ role: 'user' as const, content }],
    temperature: 0.1,
    maxTokens: 256,
    signal: extra.signal,
    tools: extra.tools
      ? [
          {
            name: 'search_graph',
            description: 'Search the graph',
            parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
          },
        ]
      : undefined,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

/**
 * One contract every model adapter meets against its fake server: chat, streaming, images, tools, embeddings,
 * cancellation, timeouts, a transient 429 retried to success, and a 401 that is not retried.
 */
export function describeAdapterContract(
  name: string,
  setup: () => Promise<ContractSubject>,
  teardown: () => Promise<void> = async () => {},
) {
  describe(`${name} adapter contract`, () => {
    let subject: ContractSubject;
    const chat = (content: string, extra?: Parameters<typeof request>[1]) => ({
      ...request(content, extra),
      model: subject.model,
    });

    it('completes a chat with text and token usage', async () => {
      subject = await setup();
      try {
        const result = await completeWithPolicy(subject.chat, chat('hello there'), policy);
        expect(result.text).toBe(fakeReply('hello there'));
        expect(result.finishReason).toBe('stop');
        expect(result.usage.outputTokens).toBe(3);
        expect(result.usage.inputTokens).toBeGreaterThanOrEqual(2);
        expect(result.provider).toBe(subject.chat.provider);
      } finally {
        await teardown();
      }
    });

    it('streams the answer in several deltas', async () => {
      subject = await setup();
      try {
        const events: ChatStreamEvent[] = [];
        for await (const event of streamWithPolicy(subject.chat, chat('stream me please'), policy)) events.push(event);
        const deltas = events.filter((event) => event.type === 'text');
        expect(deltas.length).toBeGreaterThanOrEqual(2);
        expect(deltas.map((event) => event.delta).join('')).toBe(fakeReply('stream me please'));
        expect(events.at(-1)?.type).toBe('finish');
      } finally {
        await teardown();
      }
    });

    it('sends the images of a user message, their bytes intact', async () => {
      subject = await setup();
      try {
        const image = Uint8Array.from({ length: 300 }, (_, index) => (index * 7) % 256);
        const request = chat('what is in this picture?');
        const result = await completeWithPolicy(
          subject.chat,
          {
            ...request,
            operation: 'vision',
            messages: [
              { role: 'user', content: 'what is in this picture?', images: [{ mediaType: 'image/png', data: image }] },
            ],
          },
          policy,
        );
        expect(result.text).toBe(fakeReply('what is in this picture?', [image]));
      } finally {
        await teardown();
      }
    });

    it('returns tool calls with parsed arguments', async () => {
      subject = await setup();
      try {
        const result = await completeWithPolicy(subject.chat, chat('please use tool now', { tools: true }), policy);
        expect(result.toolCalls).toHaveLength(1);
        expect(result.toolCalls[0]).toMatchObject({
          name: 'search_graph',
          arguments: { query: 'please use tool now' },
        });
        expect(result.toolCalls[0].id).toBeTruthy();
        expect(result.finishReason).toBe('tool_calls');
      } finally {
        await teardown();
      }
    });

    it('cancels a call in flight when the caller aborts', async () => {
      subject = await setup();
      try {
        subject.fake.setDelay(3000);
        const controller = new AbortController();
        const started = performance.now();
        setTimeout(() => controller.abort(), 50);
        const error = await failureOf(
          completeWithPolicy(subject.chat, chat('slow', { signal: controller.signal }), policy),
        );
        expect(error.kind).toBe('cancelled');
        expect(performance.now() - started).toBeLessThan(1500);
      } finally {
        await teardown();
      }
    });

    it('times out a call that takes longer than its limit', async () => {
      subject = await setup();
      try {
        subject.fake.setDelay(3000);
        const error = await failureOf(
          completeWithPolicy(subject.chat, chat('slow'), { ...policy, maxRetries: 0, timeoutMs: 200 }),
        );
        expect(error.kind).toBe('timeout');
      } finally {
        await teardown();
      }
    });

    it('retries a 429 and then succeeds', async () => {
      subject = await setup();
      try {
        subject.fake.failNext(429, 1);
        const result = await completeWithPolicy(subject.chat, chat('after a rate limit'), policy);
        expect(result.text).toBe(fakeReply('after a rate limit'));
        expect(chatRequests(subject.fake)).toBe(2);
      } finally {
        await teardown();
      }
    });

    it('fails a 401 at once without retrying', async () => {
      subject = await setup();
      try {
        subject.fake.failNext(401, 5);
        const error = await failureOf(completeWithPolicy(subject.chat, chat('bad key'), policy));
        expect(error.kind).toBe('auth');
        expect(error.transient).toBe(false);
        expect(chatRequests(subject.fake)).toBe(1);
      } finally {
        await teardown();
      }
    });

    it('gives up on a lasting 503 after the configured retries', async () => {
      subject = await setup();
      try {
        subject.fake.failNext(503, 10);
        const error = await failureOf(completeWithPolicy(subject.chat, chat('down'), policy));
        expect(error.kind).toBe('unavailable');
        expect(chatRequests(subject.fake)).toBe(policy.maxRetries + 1);
      } finally {
        await teardown();
      }
    });

    it('embeds texts in order, deterministically, with retries', async () => {
      subject = await setup();
      try {
        if (!subject.embeddings) return expect(subject.embeddings).toBeUndefined();
        subject.fake.failNext(429, 1);
        const texts = ['alpha', 'beta', 'alpha'];
        const vectors = await embedWithPolicy(subject.embeddings, texts, policy);
        expect(vectors).toHaveLength(3);
        for (const [index, vector] of vectors.entries()) {
          expect(vector).toHaveLength(fakeEmbeddingDimensions);
          expect(Array.from(vector)).toEqual(fakeEmbedding(texts[index]).map((value) => expect.closeTo(value, 5)));
        }
        expect(subject.embeddings.dimensions()).toBe(fakeEmbeddingDimensions);
      } finally {
        await teardown();
      }
    });

    it('reports missing models and a wrong key in its check', async () => {
      subject = await setup();
      try {
        const present = await subject.chat.check([subject.model], AbortSignal.timeout(5000));
        expect(present).toMatchObject({ verified: true, missingModels: [] });
        const missing = await subject.chat.check([subject.model, 'no-such-model'], AbortSignal.timeout(5000));
        expect(missing.missingModels).toEqual(['no-such-model']);
        subject.fake.failNext(401, 5);
        const refused = await subject.chat.check([subject.model], AbortSignal.timeout(5000));
        expect(refused.verified).toBe(false);
        expect(refused.message).toBeTruthy();
      } finally {
        await teardown();
      }
    });
  });
}

function chatRequests(fake: FakeProviderControls): number {
  return fake.requests.filter((entry) => entry.method === 'POST' && !/embed/i.test(entry.path)).length;
}
