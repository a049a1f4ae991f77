import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from '../support/server.ts';

interface JsonSchema {
  type?: string;
  additionalProperties?: unknown;
  properties?: Record<string, unknown>;
}

interface Operation {
  method: string;
  path: string;
  body: JsonSchema;
}

const unknownField = 'field_no_version_of_the_api_knows';

/** The validation issues of a 422, or the status alone: what a second request must match when a field is ignored. */
const outcome = (result: CallResult) =>
  result.status === 422 ? { status: 422, body: result.body } : { status: result.status };

/** Every `additionalProperties: false` in `schema`, at any depth. */
function strictObjects(schema: unknown, at = '$'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const found = (schema as JsonSchema).additionalProperties === false ? [at] : [];
  for (const [key, value] of Object.entries(schema)) found.push(...strictObjects(value, `${at}.${key}`));
  return found;
}

/**
 * Walks the OpenAPI document: for every operation with a JSON object body, the request is sent once as `{}` and
 * once with an unknown field besides. A server that ignores unknown fields answers both alike, and then the
 * document must not claim `additionalProperties: false` anywhere in that body.
 */
describe('unknown fields in request bodies: the document says what the server does', () => {
  let server: TestServer;
  let key: string;
  let operations: Operation[];

  beforeAll(async () => {
    server = await startTestServer();
    const cookie = await setUpAccount(server);
    // An API key, as one operation (logout) ends the session of a cookie.
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'walker' } })).body as { key: string }).key;
    const doc = (await server.call('GET', '/openapi.json', { key })).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([apiPath, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const body = operation.requestBody?.content['application/json']?.schema;
        return body?.type === 'object' ? [{ method: method.toUpperCase(), path: apiPath, body }] : [];
      }),
    );
  });
  afterAll(() => server?.stop());

  it('documents no refusal of unknown fields where the server ignores them', async () => {
    expect(operations.length).toBeGreaterThan(60);
    const disagreements: string[] = [];
    for (const { method, path: apiPath, body } of operations) {
      if (apiPath === '/mcp' || apiPath === '/auth/keys/{key_id}') continue; // JSON-RPC; and revoking the walker's key
      const target = apiPath.replace(/\{\w+\}/g, 'x');
      const plain = outcome(await server.call(method, target, { key, body: {} }));
      const withUnknown = outcome(await server.call(method, target, { key, body: { [unknownField]: 1 } }));
      const ignored = JSON.stringify(plain) === JSON.stringify(withUnknown);
      const claimed = strictObjects(body);
      if (ignored && claimed.length > 0)
        disagreements.push(`${method} ${apiPath}: ignored, but the document says ${claimed.join(', ')} is strict`);
      if (!ignored && body.additionalProperties !== false)
        disagreements.push(
          `${method} ${apiPath}: refused (${JSON.stringify(withUnknown)}), but the document allows it`,
        );
    }
    expect(disagreements).toEqual([]);
  });
});
