import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxPage } from '@rhizome/contracts/api/common';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';
import { until } from '../support/wait.ts';

interface Operation {
  method: string;
  path: string;
  operation: {
    parameters?: { name: string; in: string }[];
    requestBody?: { content: Record<string, unknown> };
    responses: Record<string, unknown>;
  };
}

interface ErrorBody {
  error: string;
  message: string;
  details: Record<string, unknown> | null;
}

const uploadRoutes = [
  { route: '/sources', field: 'file' },
  { route: '/sources/batch', field: 'files' },
  { route: '/exports/import', field: 'file' },
  { route: '/registry/upload', field: 'file' },
];

function expectEnvelope(result: CallResult, status: number): ErrorBody {
  expect(result.status, `${result.status} ${result.text}`).toBe(status);
  const body = result.body as ErrorBody;
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.details === null || typeof body.details === 'object').toBe(true);
  return body;
}

/** Every file under `dir` (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const concrete = (apiPath: string) => apiPath.replace(/\{\w+\}/g, 'x');
const segments = (apiPath: string) => apiPath.split('/');
const isParam = (segment: string) => segment.startsWith('{');

describe('HTTP input hardening', () => {
  let server: TestServer;
  let cookie: string;
  let operations: Operation[];
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const raw = (method: string, apiPath: string, rawBody: string, contentType = 'application/json') =>
    server.call(method, apiPath, { cookie, rawBody, headers: { 'content-type': contentType } });
  /** Where the four upload endpoints put files while a request is received. */
  const uploadDirs = () => [
    path.join(server.dataDir, 'databases', 'default', 'sources', '.incoming'),
    path.join(server.dataDir, 'imports'),
    path.join(server.dataDir, 'tmp'),
  ];
  const strayUploads = () => uploadDirs().flatMap(filesUnder);

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const doc = (await call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, Operation['operation']>>;
    };
    operations = Object.entries(doc.paths).flatMap(([apiPath, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path: apiPath, operation })),
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('refuses JSON nested 10,000 levels deep with 422 on every JSON endpoint, and still takes 100 levels', async () => {
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const jsonOperations = operations.filter(({ operation }) => operation.requestBody?.content['application/json']);
    expect(jsonOperations.length).toBeGreaterThan(60);
    for (const { method, path: apiPath } of jsonOperations) {
      for (const body of [deepArray, deepObject]) {
        const result = await raw(method, concrete(apiPath), body);
        if (apiPath.startsWith('/openai/')) {
          // The OpenAI-compatible API answers in OpenAI's error shape, where a malformed request is a 400.
          expect(result.status, `${method} ${apiPath}`).toBe(400);
          expect((result.body as { error: { message: string } }).error.message).toContain(
            'nested more than 128 levels',
          );
          continue;
        }
        if (apiPath === '/auth/setup' || apiPath === '/auth/login') {
          // Before their body, setup after setup answers 409, and login refuses anything larger than a login.
          expect(expectEnvelope(result, apiPath === '/auth/setup' ? 409 : 413).error).toMatch(/CONFLICT|TOO_LARGE/);
          continue;
        }
        const error = expectEnvelope(result, 422);
        expect(error.error, `${method} ${apiPath}`).toBe('VALIDATION_FAILED');
        expect(error.message).toContain('nested more than 128 levels');
      }
    }
    // A quote or bracket inside a string is text, not nesting.
    const properties = { nested: JSON.parse('{"a":'.repeat(100) + '"[[[{{{\\"]"' + '}'.repeat(100)) as unknown };
    const created = await call('POST', '/nodes', { template_id: 'system_template_person', label: 'Deep', properties });
    expect(created.status, created.text).toBe(201);
  });

  it('refuses a JSON string holding half a surrogate pair with 422, and takes whole pairs', async () => {
    const lone = await raw('POST', '/registry/import', '{"owner_username":"someone","repo_name":"\\ud800x"}');
    expect(expectEnvelope(lone, 422).message).toBe('Request body is not well-formed Unicode');
    const pair = await raw('POST', '/sources/tags', '{"name":"tag \\ud83d\\ude00"}');
    expect(pair.status, pair.text).toBe(201);
    expect((pair.body as { name: string }).name).toBe('tag 😀');
  });

  it('answers malformed multipart with 400 in the envelope and leaves no file behind', async () => {
    const boundary = 'fuzzBoundary42';
    const part = (field: string, header = '') =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.txt"${header}\r\nContent-Type: text/plain\r\n\r\n${'some text '.repeat(2000)}\r\n--${boundary}--\r\n`;
    for (const { route, field } of uploadRoutes) {
      const cases = [
        { what: 'no boundary', contentType: 'multipart/form-data', body: part(field) },
        {
          what: 'cut short in the file',
          contentType: `multipart/form-data; boundary=${boundary}`,
          body: part(field).slice(0, 5_000),
        },
        {
          what: 'NUL in a part header',
          contentType: `multipart/form-data; boundary=${boundary}`,
          body: part(field, '\0; x="y"'),
        },
      ];
      for (const { what, contentType, body } of cases) {
        const error = expectEnvelope(await raw('POST', route, body, contentType), 400);
        expect(error.message, `${route}: ${what}`).toMatch(/^Malformed multipart body/);
      }
    }
    expect(strayUploads()).toEqual([]);
    expect(((await call('GET', '/sources')).body as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('refuses a page above the bound with 422 on every list, and serves the bound itself', async () => {
    const lists = operations.filter(
      ({ method, operation }) =>
        method === 'GET' &&
        operation.parameters?.some((parameter) => parameter.in === 'query' && parameter.name === 'page'),
    );
    expect(lists.map(({ path: apiPath }) => apiPath)).toEqual(
      expect.arrayContaining([
        '/queue/tasks',
        '/llm/tasks',
        '/graph/grounding/nodes',
        '/graph/grounding/edges',
        '/sources',
        '/nodes',
      ]),
    );
    for (const { path: apiPath } of lists) {
      for (const page of ['1e20', String(maxPage + 1), '-1', '0']) {
        const error = expectEnvelope(await call('GET', `${concrete(apiPath)}?page=${page}`), 422);
        expect(error.error, `${apiPath}?page=${page}`).toBe('VALIDATION_FAILED');
      }
    }
    for (const apiPath of ['/queue/tasks', '/llm/tasks', '/graph/grounding/nodes', '/sources', '/nodes']) {
      const result = await call('GET', `${apiPath}?page=${maxPage}`);
      expect(result.status, `${apiPath}: ${result.text}`).toBe(200);
      expect((result.body as { pagination: { page: number } }).pagination.page).toBe(maxPage);
    }
  });

  it('refuses an empty upload with 422 "the file is empty" and stores nothing; a batch refuses it per file', async () => {
    for (const { route, field } of uploadRoutes.filter(({ route }) => route !== '/sources/batch')) {
      const result = await uploadSources(server, cookie, route, [{ name: 'empty.txt', content: '', field }]);
      const error = expectEnvelope({ ...result, cookie: undefined }, 422);
      expect(error.error).toBe('VALIDATION_FAILED');
      expect(error.message, route).toBe("The file 'empty.txt' is empty");
    }
    const batch = await uploadSources(server, cookie, '/sources/batch', [{ name: 'blank.txt', content: '' }]);
    expect(batch.status, batch.text).toBe(202);
    expect(batch.body).toMatchObject({
      uploaded: 0,
      failed: 1,
      files: [],
      errors: [{ filename: 'blank.txt', error: "The file 'blank.txt' is empty" }],
    });
    // A refused file of an answered batch goes when the request ends, which can be a moment after the answer.
    await until(() => strayUploads().length === 0, { what: 'the refused upload to be removed' });
    expect(((await call('GET', '/sources')).body as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('keeps a file name written in UTF-8 as the browser sent it', async () => {
    const names = ['bråk.txt', 'Müller – Notizen.md', '北京.txt'];
    const result = await uploadSources(
      server,
      cookie,
      '/sources/batch',
      names.map((name) => ({ name, content: `Notes kept in ${name}.` })),
      { extract_entities: 'false' },
    );
    expect(result.status, result.text).toBe(202);
    expect((result.body as { files: { filename: string }[] }).files.map((file) => file.filename)).toEqual(names);
  });

  it('answers 404 naming the unknown ids of /exports/by_sources and /quality/analyze, and accepts known ones', async () => {
    const uploaded = await uploadSources(server, cookie, '/sources', [
      { name: 'known.txt', content: 'Ada Lovelace wrote about the Analytical Engine.' },
    ]);
    expect(uploaded.status, uploaded.text).toBe(202);
    const known = (uploaded.body as { id: string }).id;
    const unknown = ['src_000000000000000000000001', 'src_000000000000000000000002'];

    const exported = expectEnvelope(await call('POST', '/exports/by_sources', [known, ...unknown]), 404);
    expect(exported.message).toBe(`sources not found: ${unknown.join(', ')}`);
    expect(exported.details).toMatchObject({ resource_type: 'source', unknown_ids: unknown });
    const analyzed = expectEnvelope(await call('POST', '/quality/analyze', { source_ids: [known, unknown[0]] }), 404);
    expect(analyzed.message).toBe(`source not found: ${unknown[0]}`);
    expect(analyzed.details).toMatchObject({ resource_type: 'source', unknown_ids: [unknown[0]] });

    expect((await call('POST', '/exports/by_sources', [known])).status).toBe(202);
    expect((await call('POST', '/quality/analyze', { source_ids: [known] })).status).toBe(200);
  });

  it('answers 409 to every setup after setup and every login before it, without touching the rate limit', async () => {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const result = await server.call('POST', '/auth/setup', {
        body: { username: 'operator', password: 'correct horse battery' },
      });
      expect(expectEnvelope(result, 409).error, `attempt ${attempt + 1}`).toBe('CONFLICT');
    }
    const fresh = await startTestServer();
    try {
      for (let attempt = 0; attempt < 12; attempt += 1) {
        const result = await fresh.call('POST', '/auth/login', {
          body: { username: 'operator', password: 'correct horse battery' },
        });
        expectEnvelope(result, 409);
      }
      await setUpAccount(fresh);
      const login = await fresh.call('POST', '/auth/login', {
        body: { username: 'operator', password: 'correct horse battery' },
      });
      expect(login.status, login.text).toBe(200);
    } finally {
      await fresh.stop();
    }
  });

  it("GET /nodes/{id} carries the node's counts", async () => {
    const node = async (label: string) =>
      ((await call('POST', '/nodes', { template_id: 'system_template_person', label })).body as { id: string }).id;
    const hub = await node('Hub');
    const others = await Promise.all(Array.from({ length: 11 }, (_, index) => node(`Spoke ${index}`)));
    for (const [index, other] of others.entries()) {
      const [source, target] = index < 8 ? [hub, other] : [other, hub];
      const edge = await call('POST', '/edges', {
        template_id: 'system_template_link',
        source_node_id: source,
        target_node_id: target,
        label: index % 2 ? 'knows' : 'likes',
      });
      expect(edge.status, edge.text).toBe(201);
    }
    const fetched = await call('GET', `/nodes/${hub}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({
      edge_count: 11,
      outgoing_edge_count: 8,
      incoming_edge_count: 3,
      citation_count: 0,
      relationship_type_count: 2,
    });
    const moved = await call('PATCH', `/nodes/${hub}/position`, { position: { x: 1, y: 2 } });
    expect(moved.body).toMatchObject({ edge_count: 11 });
  });

  it('lets every literal path win over a {param} sibling', async () => {
    const routes = new Set(operations.map(({ method, path: apiPath }) => `${method} ${apiPath}`));
    const checked = new Set<string>();
    for (const { method, path: paramPath } of operations) {
      const own = segments(paramPath);
      for (const { path: other } of operations) {
        // The literal path another route has where this one has a {param}: a request for it must not reach this route.
        const literal = segments(other).slice(0, own.length);
        const shadowed =
          literal.length === own.length &&
          own.some((segment, index) => isParam(segment) && !isParam(literal[index])) &&
          own.every((segment, index) => (isParam(segment) ? true : segment === literal[index])) &&
          !literal.some(isParam);
        const key = `${method} ${literal.join('/')}`;
        if (!shadowed || checked.has(key)) continue;
        checked.add(key);
        const result = await call(method, literal.join('/'), method === 'GET' || method === 'DELETE' ? undefined : {});
        if (routes.has(key)) {
          const { responses } = operations.find(
            (candidate) => `${candidate.method} ${candidate.path}` === key,
          )!.operation;
          expect(String(result.status), `${key}: ${result.text}`).toBe(
            Object.keys(responses).find((status) => status.startsWith('2')),
          );
        } else {
          expect(expectEnvelope(result, 404).details, `${key} reached ${paramPath}`).toMatchObject({
            resource_type: 'route',
          });
        }
      }
    }
    expect(checked).toContain('GET /workflows/executions');
    expect(checked).toContain('GET /sources/stats');
    expect(checked.size).toBeGreaterThan(40);
  });

  it('GET /workflows/executions lists the executions of every workflow, newest first', async () => {
    // The 13 nodes created above ran the system embedding workflow once each.
    interface Execution {
      id: string;
      workflow_id: string;
      status: string;
      created_at: string;
    }
    type Listed = { data: Execution[]; pagination: { total: number; page_size: number } };
    const listed = await until(
      async () => {
        const page = await call('GET', '/workflows/executions?page_size=5');
        return page.status !== 200 || (page.body as Listed).pagination.total >= 13 ? page : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 50, what: '13 executions' },
    );
    expect(listed.status, listed.text).toBe(200);
    const { data, pagination } = listed.body as Listed;
    expect(pagination.total).toBe(13);
    expect(data).toHaveLength(5);
    expect(data.map((execution) => execution.created_at)).toEqual(
      data
        .map((execution) => execution.created_at)
        .sort()
        .reverse(),
    );
    const workflowId = data[0].workflow_id;
    const ofOne = (await call('GET', `/workflows/executions?workflow_id=${workflowId}&page_size=1000`)).body as {
      data: Execution[];
    };
    expect(ofOne.data).toHaveLength(13);
    expect(new Set(ofOne.data.map((execution) => execution.workflow_id))).toEqual(new Set([workflowId]));
    const sameAsNested = (await call('GET', `/workflows/${workflowId}/executions?page_size=1000`)).body as {
      data: Execution[];
    };
    expect(ofOne.data.map((execution) => execution.id)).toEqual(sameAsNested.data.map((execution) => execution.id));
  });
});
