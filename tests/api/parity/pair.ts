import { contentDifferences, normalised, shapeDifferences, shapeOf } from './compare.ts';
import type { TestServer } from '../../support/server.ts';
import { documentedOperations, type DocumentedOperation } from '../../support/openapi-operations.ts';

export type Backend = 'sqlite' | 'postgres';

/** One of the two servers, with the ids its answers gave the scenario's names. */
export interface Side {
  backend: Backend;
  server: TestServer;
  cookie: string;
  /** Scenario name → this server's id. */
  ids: Map<string, string>;
  /** This server's id → scenario name, for comparing content that carries ids. */
  names: Map<string, string>;
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
  contentType: string;
  /** The `name=value` of a Set-Cookie header. */
  cookie?: string;
}

/** One request of the scenario, sent to both servers. */
export interface Step {
  method: string;
  /** `/nodes/{ada}`: each `{name}` is the id the scenario saved under that name, on each server. */
  path: string;
  /** JSON; a string `{{name}}` inside it is replaced by that id on each server; a function builds it per server. */
  body?: unknown;
  /** A multipart body, built per server. */
  form?: (side: Side) => FormData;
  /** What must agree beside the status: the shape of a JSON body (default), its content, or nothing. */
  compare?: 'status' | 'shape' | 'content';
  /** The status both must answer. */
  expect?: number;
  /** Names for ids the answer carries. */
  save?: (body: never) => Record<string, string | undefined>;
  /** Runs on each server after the answer (e.g. waiting for a task it queued). */
  after?: (side: Side, answer: Answer) => Promise<void>;
  /** Calls an outside service the run leaves unreachable: a 502 or 503 from both is its answer, not a fault. */
  upstream?: boolean;
  /** The content is compared after this reduction (e.g. the top results only). */
  view?: (body: never) => unknown;
}

export interface Outcome {
  step: string;
  problems: string[];
}

const requestTimeoutMs = 20_000;

function fill(template: string, side: Side, pattern: RegExp): string {
  return template.replace(pattern, (whole, name: string) => side.ids.get(name) ?? `missing-${name}`);
}

function fillBody(value: unknown, side: Side): unknown {
  if (typeof value === 'string') return fill(value, side, /\{\{(\w+)\}\}/g);
  if (Array.isArray(value)) return value.map((item) => fillBody(item, side));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillBody(item, side)]));
  return value;
}

/** A request; an event stream answers with its status and headers only (it would not end). */
export async function send(side: Side, step: Step): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), requestTimeoutMs);
  const headers: Record<string, string> = { cookie: side.cookie };
  let body: BodyInit | undefined;
  if (step.form) body = step.form(side);
  else if (step.body !== undefined) {
    body = JSON.stringify(
      typeof step.body === 'function' ? (step.body as (side: Side) => unknown)(side) : fillBody(step.body, side),
    );
    headers['content-type'] = 'application/json';
  }
  const url = `${side.server.base}${fill(step.path, side, /\{(\w+)\}/g)}`;
  try {
    const response = await fetch(url, { method: step.method, headers, body, signal: controller.signal });
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('text/event-stream')) {
      controller.abort();
      return { status: response.status, body: null, text: '', contentType };
    }
    const text = contentType.includes('json') || contentType.startsWith('text/') ? await response.text() : '';
    if (!text) await response.arrayBuffer().catch(() => undefined);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // a text body stays text
    }
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    return { status: response.status, body: parsed, text, contentType, cookie };
  } catch (error) {
    return { status: 0, body: null, text: String(error), contentType: '' };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one step on both servers at once and says where their answers part. */
export async function runStep(sides: [Side, Side], step: Step, log: string[]): Promise<Outcome> {
  const label = `${step.method} ${step.path}`;
  const answers = await Promise.all(sides.map((side) => send(side, step)));
  const [sqlite, postgres] = answers;
  sides.forEach((side, index) =>
    log.push(`${step.method} ${fill(step.path, side, /\{(\w+)\}/g)} ${answers[index].status}`),
  );
  const problems: string[] = [];
  const upstreamDown = step.upstream && answers.every((answer) => answer.status === 502 || answer.status === 503);
  for (const [index, answer] of answers.entries())
    if ((answer.status >= 500 && !upstreamDown) || answer.status === 0)
      problems.push(`${sides[index].backend} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (sqlite.status !== postgres.status)
    problems.push(
      `status sqlite ${sqlite.status} ≠ postgres ${postgres.status} (${sqlite.text.slice(0, 150)} | ${postgres.text.slice(0, 150)})`,
    );
  if (step.expect !== undefined && sqlite.status !== step.expect)
    problems.push(`expected ${step.expect}, sqlite answered ${sqlite.status}: ${sqlite.text.slice(0, 200)}`);
  const compare = step.compare ?? 'shape';
  if (!problems.length && compare !== 'status' && sqlite.contentType.includes('json')) {
    const view = step.view ?? ((body: unknown) => body);
    const [left, right] = answers.map((answer) => view(answer.body as never));
    problems.push(...shapeDifferences(shapeOf(left), shapeOf(right)).map((line) => `shape ${line}`));
    if (compare === 'content')
      problems.push(
        ...contentDifferences(normalised(left, sides[0].names), normalised(right, sides[1].names)).map(
          (line) => `content ${line}`,
        ),
      );
  }
  for (const [index, side] of sides.entries()) {
    const answer = answers[index];
    if (step.save && answer.status < 300)
      for (const [name, id] of Object.entries(step.save(answer.body as never)))
        if (id !== undefined && id !== null) {
          side.ids.set(name, String(id));
          side.names.set(String(id), name);
        }
  }
  if (step.after) await Promise.all(sides.map((side, index) => step.after!(side, answers[index])));
  return { step: label, problems };
}

/** The documented operations each logged request (`METHOD /path status`) reached. */
export function reachedOperations(
  openApi: unknown,
  log: string[],
): { all: DocumentedOperation[]; reached: Set<string>; succeeded: Set<string> } {
  const all = documentedOperations(openApi);
  const matchers = all
    .map((operation) => {
      const segments = operation.path.split('/');
      const pattern = new RegExp(
        `^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
      );
      return { operation, pattern, literals: segments.filter((s) => !s.startsWith('{')).length };
    })
    .sort((a, b) => b.literals - a.literals);
  const reached = new Set<string>();
  const succeeded = new Set<string>();
  for (const line of log) {
    const [method, url, status] = line.split(' ');
    const pathname = url.split('?')[0];
    const hit = matchers.find((entry) => entry.operation.method === method && entry.pattern.test(pathname));
    if (!hit) continue;
    reached.add(`${method} ${hit.operation.path}`);
    if (Number(status) < 300) succeeded.add(`${method} ${hit.operation.path}`);
  }
  return { all, reached, succeeded };
}
