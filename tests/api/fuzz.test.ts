import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema as Schema } from '../support/openapi-operations.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

/**
 * A schema-driven fuzz run over the OpenAPI document the server serves: for every operation a bounded,
 * seeded set of hostile requests (wrong types, missing required fields, oversize strings, deep nesting,
 * malformed JSON and multipart, huge and negative numbers, odd path values). No answer may be a 5xx,
 * every 4xx carries the error envelope, and the server is healthy afterwards.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  json?: Schema;
  multipart?: { field: string; multiple: boolean };
}

/** One request of the run. */
interface Case {
  label: string;
  path: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
}

const casesPerOperation = 14;
const requestTimeoutMs = 5_000;
const seed = 20_261_125;
// Addresses nothing listens on: a request that gets as far as an outside service fails fast and stays on this machine.
const closedUrl = 'http://127.0.0.1:9';
const oversize = 'x'.repeat(200_000);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Run last, in this order: they reset what the run set up, replace the database, or end the session. */
const lastOperations = [
  'POST /settings/reset',
  'POST /upgrade/rollback',
  'POST /backup/{filename}/restore',
  'POST /auth/logout',
];

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function random(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  const variant = schema.anyOf ?? schema.oneOf;
  return variant ? typeOf(variant.find((option) => option.type !== 'null') ?? variant[0]) : undefined;
}

/** A plausible value for the schema: its default, first choice, or the smallest value of its type. */
function sample(schema: Schema, depth = 0): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variant = schema.anyOf ?? schema.oneOf;
  if (variant) return sample(variant.find((option) => option.type !== 'null') ?? variant[0], depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sample(part, depth) as object));
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries(
        (depth > 4 ? [] : (schema.required ?? [])).map((name) => [
          name,
          sample(schema.properties?.[name] ?? {}, depth + 1),
        ]),
      );
    case 'array':
      return Array.from({ length: Math.min(schema.minItems ?? 0, 3) }, () => sample(schema.items ?? {}, depth + 1));
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (schema.format === 'uri' || schema.format === 'url') return `${closedUrl}/fuzz`;
      return 'f'.repeat(Math.max(schema.minLength ?? 1, 1));
    default:
      return 'fuzz';
  }
}

/** Values of the wrong kind, the wrong size or the wrong sign for one field of the schema. */
function hostileValues(schema: Schema): { label: string; value: unknown }[] {
  const type = typeOf(schema);
  const values: { label: string; value: unknown }[] = [
    { label: 'deeply nested', value: JSON.parse(deepArray(120)) as unknown },
  ];
  if (type === 'string')
    values.push(
      { label: 'a number for a string', value: 12_345 },
      { label: 'an oversize string', value: oversize },
      { label: 'control characters', value: '\u0000\u0007\uffff\ud800' },
    );
  else if (type === 'integer' || type === 'number') {
    values.push(
      { label: 'a string for a number', value: 'many' },
      { label: 'a huge number', value: 1e308 },
      { label: 'a negative number', value: -1e20 },
      { label: 'a fraction', value: 0.5 },
    );
  } else if (type === 'boolean') values.push({ label: 'a string for a boolean', value: 'maybe' });
  else if (type === 'array')
    values.push(
      { label: 'an object for an array', value: { a: 1 } },
      { label: 'a huge array', value: Array.from({ length: 20_000 }, () => 'f') },
    );
  else values.push({ label: 'a string for an object', value: 'text' }, { label: 'null', value: null });
  return values;
}

function pick<T>(items: T[], count: number, next: () => number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (pool.length && chosen.length < count) chosen.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
  return chosen;
}

/** The request cases of one operation, at most `casesPerOperation`. */
function casesFor(operation: Operation, next: () => number): Case[] {
  const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
  const withPath = (value: (parameter: Parameter) => string) =>
    pathParams.reduce((built, parameter) => built.replace(`{${parameter.name}}`, value(parameter)), operation.path);
  const basePath = withPath((parameter) => encodeURIComponent(String(sample(parameter.schema))));
  const baseQuery = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'query' && parameter.required)
      .map((parameter) => [parameter.name, String(sample(parameter.schema))]),
  );
  const cases: Case[] = [
    {
      label: 'an unknown, oversize query parameter',
      path: basePath,
      query: { ...baseQuery, zz_unknown: 'q'.repeat(4_000) },
    },
  ];
  if (operation.method !== 'GET') {
    // The JSON parser runs before any route, whether the operation takes a body or not.
    cases.push(
      {
        label: 'malformed JSON',
        path: basePath,
        query: baseQuery,
        body: '{"unterminated": [1, 2',
        contentType: 'application/json',
      },
      {
        label: 'JSON nested 10,000 deep',
        path: basePath,
        query: baseQuery,
        body: deepArray(10_000),
        contentType: 'application/json',
      },
    );
  }

  if (pathParams.length) {
    for (const [label, value] of [
      ['an oversize path value', 'p'.repeat(4_000)],
      ['an encoded NUL and traversal', '%00..%2F..%2Fetc'],
      ['a quote and unicode', '%27%20OR%201%3D1%20%E2%82%AC'],
    ] as const) {
      cases.push({ label, path: withPath(() => value), query: baseQuery });
    }
  }
  const queryParams = operation.parameters.filter((parameter) => parameter.in === 'query');
  for (const parameter of pick(queryParams, 3, next)) {
    const type = typeOf(parameter.schema);
    const values =
      type === 'integer' || type === 'number'
        ? ['1e20', '-1', 'NaN', '99999999999999999999999']
        : type === 'boolean'
          ? ['maybe']
          : ['q'.repeat(4_000)];
    for (const value of values)
      cases.push({
        label: `query ${parameter.name}=${value.slice(0, 20)}`,
        path: basePath,
        query: { ...baseQuery, [parameter.name]: value },
      });
  }

  if (operation.json) {
    const schema = operation.json;
    const valid = sample(schema);
    const json = (label: string, value: unknown): Case => ({
      label,
      path: basePath,
      query: baseQuery,
      body: JSON.stringify(value),
      contentType: 'application/json',
    });
    cases.push(json('a body of the wrong type', typeOf(schema) === 'array' ? { not: 'a list' } : [1, 2, 3]));
    if (schema.required?.length) cases.push(json('no required field', {}));
    const properties = Object.entries(schema.properties ?? {});
    for (const [name, property] of pick(properties, 3, next)) {
      for (const { label, value } of pick(hostileValues(property), 2, next))
        cases.push(json(`${name}: ${label}`, { ...(valid as object), [name]: value }));
    }
    if (typeOf(schema) === 'array')
      for (const { label, value } of pick(hostileValues(schema.items ?? {}), 2, next))
        cases.push(json(`an item: ${label}`, [value]));
  }

  if (operation.multipart) {
    const { field } = operation.multipart;
    const boundary = 'fuzzfuzzfuzz';
    const part = (header = '') =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="f.txt"${header}\r\nContent-Type: text/plain\r\n\r\n${'text '.repeat(500)}\r\n--${boundary}--\r\n`;
    const multipart = `multipart/form-data; boundary=${boundary}`;
    cases.push(
      {
        label: 'multipart without a boundary',
        path: basePath,
        query: baseQuery,
        body: part(),
        contentType: 'multipart/form-data',
      },
      {
        label: 'multipart cut short',
        path: basePath,
        query: baseQuery,
        body: part().slice(0, 600),
        contentType: multipart,
      },
      {
        label: 'multipart with NUL in a part header',
        path: basePath,
        query: baseQuery,
        body: part('\0'),
        contentType: multipart,
      },
      {
        label: 'an empty file',
        path: basePath,
        query: baseQuery,
        body: `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="e.txt"\r\n\r\n\r\n--${boundary}--\r\n`,
        contentType: multipart,
      },
      {
        label: 'a file in an unexpected field',
        path: basePath,
        query: baseQuery,
        body: part().replace(`name="${field}"`, 'name="other"'),
        contentType: multipart,
      },
      {
        label: 'JSON where multipart is expected',
        path: basePath,
        query: baseQuery,
        body: '{"file": 1}',
        contentType: 'application/json',
      },
    );
  }
  return pick(cases, casesPerOperation, next);
}

function operationsOf(doc: {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
}): Operation[] {
  return Object.entries(doc.paths).flatMap(([apiPath, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const multipartSchema = operation.requestBody?.content['multipart/form-data']?.schema;
      const fileField = Object.entries(multipartSchema?.properties ?? {}).find(
        ([, property]) => property.format === 'binary' || property.items?.format === 'binary',
      );
      return {
        method: method.toUpperCase(),
        path: apiPath,
        parameters: operation.parameters ?? [],
        json: operation.requestBody?.content['application/json']?.schema,
        multipart: fileField ? { field: fileField[0], multiple: fileField[1].type === 'array' } : undefined,
      };
    }),
  );
}

describe('schema-driven fuzzing of every operation', () => {
  let server: TestServer;
  let cookie: string;
  let operations: Operation[];

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        // The run's own login attempts would otherwise lock the final login out.
        RHIZOME_SETTINGS__LOCAL_AUTH__LOGIN_MAX_ATTEMPTS: '100000',
        REGISTRY_URL: closedUrl,
        RHIZOME_SETTINGS__LLM__OPENAI_BASE_URL: `${closedUrl}/v1`,
        RHIZOME_SETTINGS__LLM__ANTHROPIC_BASE_URL: `${closedUrl}/v1`,
        RHIZOME_SETTINGS__LLM__GEMINI_BASE_URL: `${closedUrl}/v1`,
      },
    });
    cookie = await setUpAccount(server);
    operations = operationsOf(
      (await server.call('GET', '/openapi.json', { cookie })).body as Parameters<typeof operationsOf>[0],
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** A new session (a logout case ends the current one; the cases after it need credentials again). */
  async function signIn(): Promise<string> {
    const login = await server.call('POST', '/auth/login', {
      body: { username: 'operator', password: 'correct horse battery' },
    });
    expect(login.status, login.text).toBe(200);
    return login.cookie!;
  }

  it('answers every hostile request below 500, with the envelope on every 4xx, and stays healthy', async () => {
    const next = random(seed);
    const rank = (operation: Operation) => lastOperations.indexOf(`${operation.method} ${operation.path}`);
    const ordered = [
      ...operations.filter((operation) => rank(operation) < 0),
      ...operations.filter((operation) => rank(operation) >= 0).sort((a, b) => rank(a) - rank(b)),
    ];
    expect(ordered.length).toBeGreaterThan(200);
    const failures: string[] = [];
    let sent = 0;
    for (const operation of ordered) {
      for (const request of casesFor(operation, next)) {
        const query =
          request.query && Object.keys(request.query).length ? `?${new URLSearchParams(request.query)}` : '';
        const started = Date.now();
        const response = await fetch(`${server.base}${request.path}${query}`, {
          method: operation.method,
          headers: { cookie, ...(request.contentType ? { 'content-type': request.contentType } : {}) },
          body: operation.method === 'GET' ? undefined : request.body,
          signal: AbortSignal.timeout(requestTimeoutMs),
        }).catch((error: unknown) => error as Error);
        sent += 1;
        if (response instanceof Error) {
          failures.push(
            `${operation.method} ${operation.path} (${request.label}) → no answer after ${Date.now() - started} ms: ${response.message}`,
          );
          continue;
        }
        // An event stream that was opened stays open: its status and headers are the answer.
        const streaming = response.headers.get('content-type')?.startsWith('text/event-stream');
        if (streaming) await response.body?.cancel();
        const text = streaming
          ? ''
          : await response.text().catch((error: unknown) => `(body not read: ${(error as Error).message})`);
        const where = `${operation.method} ${operation.path} (${request.label}) → ${response.status} ${text.slice(0, 200)}`;
        if (operation.path === '/auth/logout' && response.ok) cookie = await signIn();
        if (response.status >= 500 && response.status !== 503) failures.push(where);
        if (response.status >= 400 && response.status < 500) {
          let body: { error?: unknown; message?: unknown; details?: unknown } | undefined;
          try {
            body = JSON.parse(text) as typeof body;
          } catch {
            // not JSON: reported below
          }
          // The OpenAI-compatible API answers in OpenAI's error shape, which its clients parse.
          const enveloped = operation.path.startsWith('/openai/')
            ? typeof (body?.error as { message?: unknown } | undefined)?.message === 'string'
            : typeof body?.error === 'string' &&
              typeof body.message === 'string' &&
              (body.details === null || typeof body.details === 'object');
          if (!enveloped) failures.push(`${where} (no error envelope)`);
        }
      }
    }
    console.log(`attack schema fuzz: ${sent} requests, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1_200);

    // Healthy afterwards: the process answers, a new session works, and a write goes through.
    const fresh = await signIn();
    expect((await server.call('GET', '/health', { cookie: fresh })).status).toBe(200);
    const created = await server.call('POST', '/sources/tags', { cookie: fresh, body: { name: 'after the fuzz run' } });
    expect(created.status, created.text).toBe(201);
    // Some 2,000 requests in sequence: on a busy two-core machine that is more than the default 30 s.
  }, 300_000);
});
