import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { eventEndpoints, type ChangeEventBody } from '@rhizome/contracts/api/events';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { RequestError, RhizomeClient } from '../src/index.ts';
import { setUpAccount, startTestServer, type TestServer } from '../../../tests/support/server.ts';
import { until } from '../../../tests/support/wait.ts';

describe('RhizomeClient against a real server', () => {
  let server: TestServer;
  let client: RhizomeClient;

  beforeAll(async () => {
    server = await startTestServer();
    const cookie = await setUpAccount(server);
    const key = await server.call('POST', '/auth/keys', { cookie, body: { name: 'client test' } });
    client = new RhizomeClient({ baseUrl: server.base, apiKey: (key.body as { key: string }).key });
  });
  afterAll(() => server.stop());

  it('returns the contract-typed body of an endpoint', async () => {
    const status = await client.call(authEndpoints.status);
    expectTypeOf(status.setup_needed).toEqualTypeOf<boolean>();
    expect(status).toEqual({ setup_needed: false, authenticated: false, username: null });
    const me = await client.call(authEndpoints.me);
    expect(me.username).toBe('operator');
  });

  it("rejects with the envelope's code and message, and the validation issue of each field", async () => {
    const anonymous = new RhizomeClient({ baseUrl: server.base });
    const wrong = await anonymous
      .call(authEndpoints.login, { body: { username: 'operator', password: 'not the password' } })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(RequestError);
    expect(wrong).toMatchObject({
      status: 401,
      code: 'HTTP_401',
      message: expect.stringMatching(/invalid username or password/i),
    });

    const empty = await client
      .call(authEndpoints.createKey, { body: { name: '' } })
      .catch((error: unknown) => error as RequestError);
    expect(empty).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect((empty as RequestError).issueFor('name')).toEqual(expect.any(String));
  });

  it('fills path parameters and repeats array query values', () => {
    expect(client.url(sourceEndpoints.chunks, { params: { source_id: 'a b' }, query: { page: 2 } })).toBe(
      `${server.base}/sources/a%20b/chunks?page=2`,
    );
  });

  it('uploads files and follows the change stream until aborted', async () => {
    const seen: ChangeEventBody[] = [];
    const abort = new AbortController();
    const following = client
      .stream<typeof eventEndpoints.stream, ChangeEventBody>(
        eventEndpoints.stream,
        { query: { topics: 'sources' } },
        (event) => seen.push(event),
        abort.signal,
      )
      .catch(() => undefined);
    await until(() => seen.some((event) => event.type === 'ready'), { what: 'the ready event' });
    const file = new File(['The client uploads a note about tidal mills and their wheels.'], 'mills.md', {
      type: 'text/markdown',
    });
    const uploaded = await client.upload(sourceEndpoints.upload, [file], { extract_entities: false });
    expect(uploaded).toMatchObject({ filename: 'mills.md', status: expect.any(String) });
    await until(() => seen.some((event) => event.type === 'source' && event.source.id === uploaded.id), {
      timeoutMs: 10_000,
      what: 'an event about the uploaded source',
    });
    abort.abort();
    await following;
  });
});
