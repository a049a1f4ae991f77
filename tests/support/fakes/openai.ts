import { bytesOfBase64, fakeEmbedding, type FakeProviderControls } from './controls.ts';
import { answerChat, startHttpFake, textOf, type FakeAnswer, type FakeTurn, type SseEvent } from './http-fake.ts';

/** A fake OpenAI API (Chat Completions, embeddings, models) — also stands in for OpenAI-compatible servers. */

interface ChatBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content?: unknown; tool_calls?: { function: { arguments: string } }[] }[];
  tools?: { function: { name: string } }[];
}

const created = 1_700_000_000;

export function startFakeOpenAi(options: { models?: string[] } = {}): Promise<FakeProviderControls> {
  const models = options.models ?? ['gpt-4.1', 'text-embedding-3-small'];
  return startHttpFake({
    basePath: '/v1',
    errorBody,
    route(request, respond) {
      if (request.method === 'GET' && request.path === '/v1/models') {
        respond.json({
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created, owned_by: 'fake' })),
        });
      } else if (request.method === 'POST' && request.path === '/v1/chat/completions') {
        const body = request.body as ChatBody;
        const answer = answerChat(body.messages.map(turnOf), body.tools?.map((tool) => tool.function.name) ?? []);
        if (body.stream) respond.sse(streamOf(answer, body));
        else respond.json(completionOf(answer, body.model));
      } else if (request.method === 'POST' && request.path === '/v1/embeddings') {
        const body = request.body as { model: string; input: string | string[] };
        const texts = typeof body.input === 'string' ? [body.input] : body.input;
        respond.json({
          object: 'list',
          data: texts.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
          model: body.model,
          usage: { prompt_tokens: texts.length, total_tokens: texts.length },
        });
      } else return false;
      return true;
    },
  });
}

function turnOf(message: ChatBody['messages'][number]): FakeTurn {
  const role = message.role === 'developer' ? 'system' : (message.role as FakeTurn['role']);
  const calls = message.tool_calls?.map((call) => call.function.arguments).join(' ') ?? '';
  // Images arrive as `image_url` parts holding a data URL.
  const parts = Array.isArray(message.content)
    ? (message.content as { type?: string; image_url?: { url?: string } }[])
    : [];
  const images = parts.flatMap((part) =>
    part.type === 'image_url' && part.image_url?.url ? [bytesOfBase64(part.image_url.url)] : [],
  );
  return { role, text: `${textOf(message.content)} ${calls}`.trim(), ...(images.length ? { images } : {}) };
}

const toolCallId = 'call_0';

function usageOf(answer: FakeAnswer) {
  return {
    prompt_tokens: answer.usage.input,
    completion_tokens: answer.usage.output,
    total_tokens: answer.usage.input + answer.usage.output,
  };
}

function completionOf(answer: FakeAnswer, model: string) {
  const message =
    answer.kind === 'text'
      ? { role: 'assistant', content: answer.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: toolCallId,
              type: 'function',
              function: { name: answer.name, arguments: JSON.stringify(answer.arguments) },
            },
          ],
        };
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, finish_reason: answer.kind === 'text' ? 'stop' : 'tool_calls' }],
    usage: usageOf(answer),
  };
}

function streamOf(answer: FakeAnswer, body: ChatBody): SseEvent[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    data: {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    },
  });
  const deltas =
    answer.kind === 'text'
      ? answer.deltas.map((content, index) => chunk(index === 0 ? { role: 'assistant', content } : { content }))
      : [
          chunk({
            role: 'assistant',
            tool_calls: [
              { index: 0, id: toolCallId, type: 'function', function: { name: answer.name, arguments: '' } },
            ],
          }),
          ...answer.argumentDeltas.map((part) => chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] })),
        ];
  const usage = body.stream_options?.include_usage
    ? [
        {
          data: {
            id: 'chatcmpl-fake',
            object: 'chat.completion.chunk',
            created,
            model: body.model,
            choices: [],
            usage: usageOf(answer),
          },
        },
      ]
    : [];
  return [...deltas, chunk({}, answer.kind === 'text' ? 'stop' : 'tool_calls'), ...usage, { data: '[DONE]' }];
}

function errorBody(status: number) {
  const [type, code, message] =
    status === 401
      ? ['invalid_request_error', 'invalid_api_key', 'Incorrect API key provided.']
      : status === 429
        ? ['requests', 'rate_limit_exceeded', 'Rate limit reached for requests.']
        : status === 404
          ? ['invalid_request_error', 'model_not_found', 'The model does not exist or you do not have access to it.']
          : status >= 500
            ? ['server_error', null, 'The server had an error while processing your request.']
            : ['invalid_request_error', null, `Request failed with status ${status}.`];
  return { error: { message, type, param: null, code } };
}
