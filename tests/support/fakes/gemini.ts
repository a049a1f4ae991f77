import { bytesOfBase64, fakeEmbedding, type FakeProviderControls } from './controls.ts';
import { answerChat, startHttpFake, textOf, type FakeAnswer, type FakeTurn } from './http-fake.ts';

/** A fake Gemini API (generateContent, streamGenerateContent over SSE, batchEmbedContents, models). */

interface Part {
  text?: string;
  functionCall?: { name: string; args: unknown };
  functionResponse?: { name: string; response: unknown };
  inlineData?: { mimeType: string; data: string };
}

interface GenerateBody {
  systemInstruction?: { parts: Part[] };
  contents: { role: 'user' | 'model'; parts: Part[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
}

const modelAction = /^\/v1beta\/models\/([^/:]+):(\w+)$/;

export function startFakeGemini(options: { models?: string[] } = {}): Promise<FakeProviderControls> {
  const models = options.models ?? ['gemini-2.5-pro', 'gemini-embedding-001'];
  return startHttpFake({
    basePath: '/v1beta',
    errorBody,
    route(request, respond) {
      const [, model, action] = modelAction.exec(request.path) ?? [];
      if (request.method === 'GET' && request.path === '/v1beta/models') {
        respond.json({ models: models.map((id) => ({ name: `models/${id}`, version: '001', displayName: id })) });
      } else if (request.method === 'POST' && (action === 'generateContent' || action === 'streamGenerateContent')) {
        const body = request.body as GenerateBody;
        const toolNames =
          body.tools?.flatMap((tool) => tool.functionDeclarations?.map((declaration) => declaration.name) ?? []) ?? [];
        const answer = answerChat(turnsOf(body), toolNames);
        if (action === 'generateContent') respond.json(responseOf(answer, model, partsOf(answer), true));
        else if (request.query.get('alt') !== 'sse') return false;
        else
          respond.sse(
            partsOf(answer).map((part, index, all) => ({
              data: responseOf(answer, model, [part], index === all.length - 1),
            })),
          );
      } else if (request.method === 'POST' && action === 'batchEmbedContents') {
        const body = request.body as { requests: { content: { parts: Part[] } }[] };
        respond.json({
          embeddings: body.requests.map((entry) => ({ values: fakeEmbedding(textOf(entry.content.parts)) })),
        });
      } else return false;
      return true;
    },
  });
}

function turnsOf(body: GenerateBody): FakeTurn[] {
  const system: FakeTurn[] = body.systemInstruction
    ? [{ role: 'system', text: textOf(body.systemInstruction.parts) }]
    : [];
  return [
    ...system,
    ...body.contents.map((content): FakeTurn => {
      const responses = content.parts.filter((part) => part.functionResponse);
      if (responses.length)
        return {
          role: 'tool',
          text: responses.map((part) => JSON.stringify(part.functionResponse?.response)).join(' '),
        };
      const images = content.parts.flatMap((part) => (part.inlineData ? [bytesOfBase64(part.inlineData.data)] : []));
      const text = content.parts
        .filter((part) => !part.inlineData)
        .map((part) => (part.functionCall ? JSON.stringify(part.functionCall.args) : (part.text ?? '')))
        .join(' ');
      return { role: content.role === 'model' ? 'assistant' : 'user', text, ...(images.length ? { images } : {}) };
    }),
  ];
}

/** Gemini sends a function call whole, never in pieces. */
function partsOf(answer: FakeAnswer): Part[] {
  return answer.kind === 'text'
    ? answer.deltas.map((text) => ({ text }))
    : [{ functionCall: { name: answer.name, args: answer.arguments } }];
}

function responseOf(answer: FakeAnswer, model: string, parts: Part[], last: boolean) {
  const usage = {
    promptTokenCount: answer.usage.input,
    candidatesTokenCount: answer.usage.output,
    totalTokenCount: answer.usage.input + answer.usage.output,
  };
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last ? { usageMetadata: usage } : {}),
    modelVersion: model,
    responseId: 'fake-response',
  };
}

const statuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function errorBody(status: number) {
  const name = statuses[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
  return { error: { code: status, message: `${name} (status ${status})`, status: name } };
}
