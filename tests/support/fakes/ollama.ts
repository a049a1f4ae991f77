import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bytesOfBase64, deltasOf, fakeEmbedding, fakeReply, wordCount, type FakeProviderControls } from './controls.ts';
import { readBody, waitUnlessGone } from './http-fake.ts';

export interface FakeOllama extends FakeProviderControls {
  /** Replaces the installed models (what /api/tags lists and chat/embed accept). */
  setModels(names: string[]): void;
  /** While down, every connection is dropped without an answer, as with a crashed server. */
  setDown(down: boolean): void;
  /**
   * Answers the next `/api/chat` calls with these texts, one per call in order, instead of the echo;
   * once they are used up the echo returns. Failures (`failNext`) still come first.
   */
  scriptChat(...answers: (string | ScriptedChat)[]): void;
  /** For each scripted answer served, in order: how many of its deltas were written before the client went away or it ended. */
  scriptedDeliveries: { deltas: number; delivered: number }[];
  /** Each `/api/pull` served: the model, whether it ran to its end, and whether the client left before. */
  pulls: { model: string; finished: boolean; abandoned: boolean }[];
}

/** A scripted chat answer, streamed as these deltas with a pause between them (so a client can cut it short). */
export interface ScriptedChat {
  deltas: string[];
  intervalMs?: number;
  /** Tool calls the answer ends with, after its deltas (a chat model's tool loop). */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** 'length': the answer ends as one cut by the output token limit (num_predict). */
  doneReason?: 'stop' | 'length';
}

export interface FakeOllamaOptions {
  models?: string[];
  version?: string;
  /** `/api/show` capabilities per model; default `embedding` for names containing "embed", else completion, tools and thinking. */
  capabilities?: Record<string, string[]>;
  /**
   * Pause between `/api/pull` progress lines (default 0). A pull streams three layers' progress and then
   * installs the model; a name starting with `missing` fails as an unknown model does.
   */
  pullIntervalMs?: number;
}

interface OllamaMessage {
  role: string;
  content?: string;
  /** Base64 images of a user message (vision). */
  images?: string[];
}

interface ChatBody {
  model?: string;
  messages?: OllamaMessage[];
  stream?: boolean;
  tools?: { function?: { name?: string } }[];
  think?: boolean;
}

interface EmbedBody {
  model?: string;
  input?: string | string[];
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An Ollama server on 127.0.0.1 speaking the real wire format (`/api/version`, `/api/tags`, `/api/show`,
 * NDJSON `/api/chat` and `/api/pull`, `/api/embed`, `/api/delete`, errors as `{error}`), with the shared deterministic behaviour of
 * `controls.ts`. `failNext` applies to every `/api` request, so a readiness check sees it too.
 */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const version = options.version ?? '0.12.6';
  let models = options.models ?? ['llama3.2:latest', 'nomic-embed-text:latest'];
  let delayMs = 0;
  let down = false;
  const failures: { status: number; headers: Record<string, string> }[] = [];
  const requests: FakeProviderControls['requests'] = [];
  const scripted: ScriptedChat[] = [];
  const scriptedDeliveries: FakeOllama['scriptedDeliveries'] = [];
  const pulls: FakeOllama['pulls'] = [];

  const resolveModel = (name: unknown): string | undefined =>
    typeof name === 'string' ? models.find((model) => model === name || model === `${name}:latest`) : undefined;

  const capabilitiesOf = (model: string): string[] =>
    options.capabilities?.[model] ??
    options.capabilities?.[model.replace(/:latest$/, '')] ??
    (model.includes('embed') ? ['embedding'] : ['completion', 'tools', 'thinking']);

  const requireModel = (name: unknown): string => {
    const model = resolveModel(name);
    if (!model) throw new HttpFailure(404, `model "${String(name)}" not found, try pulling it first`);
    return model;
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpFailure) sendJson(res, error.status, { error: error.message });
      else sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? 'GET', path, body, headers: req.headers });
    if (down) {
      req.socket.destroy();
      return;
    }
    if (!(await waitUnlessGone(delayMs, res))) return;
    if (path.startsWith('/api/')) {
      const failure = failures.shift();
      if (failure) return sendJson(res, failure.status, { error: `fake failure ${failure.status}` }, failure.headers);
    }
    if (typeof body === 'string') throw new HttpFailure(400, 'invalid character in request body');
    const route = `${req.method} ${path}`;
    switch (route) {
      case 'GET /':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Ollama is running');
        return;
      case 'GET /api/version':
        return sendJson(res, 200, { version });
      case 'GET /api/tags':
        return sendJson(res, 200, { models: models.map(tagOf) });
      case 'POST /api/show':
        return show(res, body as { model?: string } | null);
      case 'POST /api/chat':
        return await chat(res, (body ?? {}) as ChatBody);
      case 'POST /api/embed':
        return embed(res, (body ?? {}) as EmbedBody);
      case 'POST /api/pull':
        return await pull(res, (body ?? {}) as { model?: string });
      case 'DELETE /api/delete':
        return remove(res, (body ?? {}) as { model?: string });
      default:
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    }
  }

  function show(res: http.ServerResponse, body: { model?: string } | null): void {
    const model = resolveModel(body?.model);
    if (!model) throw new HttpFailure(404, `model '${String(body?.model)}' not found`);
    sendJson(res, 200, {
      modelfile: `FROM ${model}`,
      parameters: 'stop "<|eot_id|>"',
      template: '{{ .Prompt }}',
      details: detailsOf(model),
      model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 },
      capabilities: capabilitiesOf(model),
    });
  }

  async function chat(res: http.ServerResponse, body: ChatBody): Promise<void> {
    if (!body.model) throw new HttpFailure(400, 'model is required');
    const model = requireModel(body.model);
    if (body.think === true && !capabilitiesOf(model).includes('thinking'))
      throw new HttpFailure(400, `"${body.model}" does not support thinking`);
    const messages = body.messages ?? [];
    const last = messages.at(-1);
    const lastUser = last?.role === 'user' ? (last.content ?? '') : '';
    const toolName = body.tools?.[0]?.function?.name;
    const script = scripted.shift();
    if (script) return streamScripted(res, body, messages, script);
    const toolCall =
      toolName && lastUser.includes('use tool')
        ? { function: { name: toolName, arguments: { query: lastUser } } }
        : null;
    const answer = toolCall
      ? ''
      : fakeReply(lastUser, last?.role === 'user' ? (last.images ?? []).map(bytesOfBase64) : []);
    const base = () => ({ model: body.model, created_at: new Date().toISOString() });
    const done = {
      done: true,
      done_reason: 'stop',
      total_duration: 1_200_000,
      load_duration: 100_000,
      prompt_eval_count: messages.reduce((sum, message) => sum + wordCount(message.content ?? ''), 0),
      prompt_eval_duration: 300_000,
      eval_count: toolCall ? wordCount(JSON.stringify(toolCall.function.arguments)) : wordCount(answer),
      eval_duration: 800_000,
    };
    if (body.stream === false) {
      const message = { role: 'assistant', content: answer, ...(toolCall ? { tool_calls: [toolCall] } : {}) };
      return sendJson(res, 200, { ...base(), message, ...done });
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const chunks = toolCall
      ? [{ role: 'assistant', content: '', tool_calls: [toolCall] }]
      : deltasOf(answer).map((content) => ({ role: 'assistant', content }));
    for (const message of chunks) res.write(`${JSON.stringify({ ...base(), message, done: false })}\n`);
    res.end(`${JSON.stringify({ ...base(), message: { role: 'assistant', content: '' }, ...done })}\n`);
  }

  async function streamScripted(
    res: http.ServerResponse,
    body: ChatBody,
    messages: OllamaMessage[],
    script: ScriptedChat,
  ): Promise<void> {
    const answer = script.deltas.join('');
    const delivery = { deltas: script.deltas.length, delivered: 0 };
    scriptedDeliveries.push(delivery);
    const base = () => ({ model: body.model, created_at: new Date().toISOString() });
    const done = {
      done: true,
      done_reason: script.doneReason ?? 'stop',
      prompt_eval_count: messages.reduce((sum, message) => sum + wordCount(message.content ?? ''), 0),
      eval_count: wordCount(answer),
    };
    if (body.stream === false) {
      delivery.delivered = script.deltas.length;
      return sendJson(res, 200, { ...base(), message: { role: 'assistant', content: answer }, ...done });
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const [index, content] of script.deltas.entries()) {
      if (index > 0 && !(await waitUnlessGone(script.intervalMs ?? 0, res))) return;
      if (res.destroyed) return;
      res.write(`${JSON.stringify({ ...base(), message: { role: 'assistant', content }, done: false })}\n`);
      delivery.delivered += 1;
    }
    if (script.toolCalls?.length) {
      const tool_calls = script.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } }));
      res.write(
        `${JSON.stringify({ ...base(), message: { role: 'assistant', content: '', tool_calls }, done: false })}\n`,
      );
    }
    res.end(`${JSON.stringify({ ...base(), message: { role: 'assistant', content: '' }, ...done })}\n`);
  }

  function embed(res: http.ServerResponse, body: EmbedBody): void {
    if (!body.model) throw new HttpFailure(400, 'model is required');
    requireModel(body.model);
    const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
    sendJson(res, 200, {
      model: body.model,
      embeddings: inputs.map(fakeEmbedding),
      total_duration: 500_000,
      load_duration: 100_000,
      prompt_eval_count: inputs.reduce((sum, text) => sum + wordCount(text), 0),
    });
  }

  /** NDJSON progress as Ollama streams it: the manifest, each layer's bytes, verification, success. */
  async function pull(res: http.ServerResponse, body: { model?: string }): Promise<void> {
    if (!body.model) throw new HttpFailure(400, 'model is required');
    const name = body.model.includes(':') ? body.model : `${body.model}:latest`;
    const record = { model: name, finished: false, abandoned: false };
    pulls.push(record);
    res.on('close', () => {
      record.abandoned = !record.finished;
    });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`);
    line({ status: 'pulling manifest' });
    if (name.startsWith('missing')) {
      line({ error: 'pull model manifest: file does not exist' });
      res.end();
      record.finished = true;
      return;
    }
    const total = 3_000;
    for (const completed of [1_000, 2_000, 3_000]) {
      if (!(await waitUnlessGone(options.pullIntervalMs ?? 0, res))) return;
      line({ status: 'pulling 6a0746a1ec1a', digest: 'sha256:6a0746a1ec1a', total, completed });
    }
    line({ status: 'verifying sha256 digest' });
    line({ status: 'writing manifest' });
    if (!models.includes(name)) models.push(name);
    line({ status: 'success' });
    res.end();
    record.finished = true;
  }

  function remove(res: http.ServerResponse, body: { model?: string }): void {
    const model = resolveModel(body.model);
    if (!model) throw new HttpFailure(404, `model '${String(body.model)}' not found`);
    models = models.filter((name) => name !== model);
    res.writeHead(200).end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, count = 1, headers = {}) {
      for (let i = 0; i < count; i++) failures.push({ status, headers });
    },
    setDelay(ms) {
      delayMs = ms;
    },
    setModels(names) {
      models = [...names];
    },
    setDown(value) {
      down = value;
    },
    scriptChat(...answers) {
      scripted.push(...answers.map((answer) => (typeof answer === 'string' ? { deltas: deltasOf(answer) } : answer)));
    },
    scriptedDeliveries,
    pulls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function tagOf(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-01-01T00:00:00.000Z',
    size: 2_019_393_189,
    digest: `sha256:${Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64)}`,
    details: detailsOf(name),
  };
}

function detailsOf(name: string) {
  return {
    parent_model: '',
    format: 'gguf',
    family: name.split(/[:.\d]/)[0] || 'llama',
    families: ['llama'],
    parameter_size: '3.2B',
    quantization_level: 'Q4_K_M',
  };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}
