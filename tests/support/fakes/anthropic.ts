import { bytesOfBase64, type FakeProviderControls } from './controls.ts';
import { answerChat, startHttpFake, textOf, type FakeAnswer, type FakeTurn, type SseEvent } from './http-fake.ts';

/** A fake Anthropic Messages API (messages, streamed or not, and models). */

interface Block {
  type: string;
  text?: string;
  input?: unknown;
  content?: unknown;
  source?: { type: string; media_type?: string; data?: string };
}

interface MessagesBody {
  model: string;
  stream?: boolean;
  system?: unknown;
  messages: { role: 'user' | 'assistant'; content: string | Block[] }[];
  tools?: { name: string }[];
}

export function startFakeAnthropic(options: { models?: string[] } = {}): Promise<FakeProviderControls> {
  const models = options.models ?? ['claude-sonnet-4-5'];
  return startHttpFake({
    basePath: '/v1',
    errorBody,
    route(request, respond) {
      if (request.method === 'GET' && request.path === '/v1/models') {
        const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
        respond.json({ data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null });
      } else if (request.method === 'POST' && request.path === '/v1/messages') {
        const body = request.body as MessagesBody;
        const answer = answerChat(turnsOf(body), body.tools?.map((tool) => tool.name) ?? []);
        if (body.stream) respond.sse(streamOf(answer, body.model));
        else
          respond.json({
            ...messageOf(answer, body.model),
            content:
              answer.kind === 'text' ? [{ type: 'text', text: answer.text }] : [toolUseOf(answer, answer.arguments)],
          });
      } else return false;
      return true;
    },
  });
}

function turnsOf(body: MessagesBody): FakeTurn[] {
  const system: FakeTurn[] = body.system ? [{ role: 'system', text: textOf(body.system) }] : [];
  return [
    ...system,
    ...body.messages.map((message): FakeTurn => {
      if (typeof message.content === 'string') return { role: message.role, text: message.content };
      const results = message.content.filter((block) => block.type === 'tool_result');
      if (results.length) return { role: 'tool', text: results.map((block) => textOf(block.content)).join(' ') };
      const images = message.content.flatMap((block) =>
        block.type === 'image' && block.source?.type === 'base64' ? [bytesOfBase64(block.source.data ?? '')] : [],
      );
      const text = message.content
        .filter((block) => block.type !== 'image')
        .map((block) => (block.type === 'tool_use' ? JSON.stringify(block.input) : (block.text ?? '')))
        .join(' ');
      return { role: message.role, text, ...(images.length ? { images } : {}) };
    }),
  ];
}

const stopReason = (answer: FakeAnswer) => (answer.kind === 'text' ? 'end_turn' : 'tool_use');

function messageOf(answer: FakeAnswer, model: string) {
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: stopReason(answer),
    stop_sequence: null,
    usage: { input_tokens: answer.usage.input, output_tokens: answer.usage.output },
  };
}

function toolUseOf(answer: Extract<FakeAnswer, { kind: 'tool' }>, input: unknown) {
  return { type: 'tool_use', id: 'toolu_fake0', name: answer.name, input };
}

function streamOf(answer: FakeAnswer, model: string): SseEvent[] {
  const event = (type: string, data: Record<string, unknown> = {}): SseEvent => ({
    event: type,
    data: { type, ...data },
  });
  const [block, deltas] =
    answer.kind === 'text'
      ? [{ type: 'text', text: '' }, answer.deltas.map((text) => ({ type: 'text_delta', text }))]
      : [
          toolUseOf(answer, {}),
          answer.argumentDeltas.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
        ];
  return [
    event('message_start', {
      message: {
        ...messageOf(answer, model),
        stop_reason: null,
        usage: { input_tokens: answer.usage.input, output_tokens: 1 },
      },
    }),
    event('content_block_start', { index: 0, content_block: block }),
    event('ping'),
    ...deltas.map((delta) => event('content_block_delta', { index: 0, delta })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: stopReason(answer), stop_sequence: null },
      usage: { output_tokens: answer.usage.output },
    }),
    event('message_stop'),
  ];
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function errorBody(status: number) {
  const type = errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message: `${type} (status ${status})` } };
}
