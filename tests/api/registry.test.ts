import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedPackage } from '../support/ccx-package.ts';
import { startRegistryFake, type RegistryFake } from '../support/fakes/registry-server.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { waitForTask } from '../support/wait.ts';

const upstreamFailure = {
  error: 'REGISTRY_UPSTREAM_ERROR',
  message: 'Upstream registry request failed',
  details: null,
};

describe('package registry', () => {
  let server: TestServer;
  let fake: RegistryFake;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown, headers?: Record<string, string>) =>
    server.call(method, apiPath, { cookie, body, headers });
  const authFile = () => path.join(server.dataDir, 'config', 'auth.json');
  const settings = (patch: unknown) =>
    call('PATCH', '/settings', patch).then((result) => expect(result.status).toBe(200));
  const upload = async (bytes: Buffer, query = '', headers: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'knowledge.ccx');
    const response = await fetch(`${server.base}/registry/upload${query}`, {
      method: 'POST',
      headers: { cookie, ...headers },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const startDevice = async () => {
    const started = await call('POST', '/registry/auth/device', {});
    expect(started.status).toBe(200);
    return (started.body as { device_code: string }).device_code;
  };
  const poll = (deviceCode: string) => call('POST', '/registry/auth/poll', { device_code: deviceCode });

  beforeAll(async () => {
    fake = await startRegistryFake();
    server = await startTestServer({ env: { REGISTRY_URL: fake.url } });
    cookie = await setUpAccount(server);
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('checks the registry address with the URL-import policy: a loopback registry is refused until private addresses are allowed', async () => {
    const refused = await call('POST', '/registry/auth/login', { username: 'ada', password: 'secret-pass' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'registry_url' } });
    expect((refused.body as { message: string }).message).toContain('not a public address');
    const metadata = await call('POST', '/registry/auth/device', { registry_url: 'http://169.254.169.254' });
    expect(metadata.status).toBe(400);
    expect(fake.requests).toHaveLength(0);
    await settings({ web: { allow_private_addresses: true } });
  });

  it('reports the status from the credentials file alone, without a network request', async () => {
    const before = fake.requests.length;
    const status = await call('GET', '/registry/auth/status');
    expect(status.body).toEqual({ authenticated: false, username: null, registry_url: null, token_present: false });
    expect(fake.requests.length).toBe(before);
  });

  it('logs in through the device flow: pending, slow_down, then approved, with the credentials file created 0600', async () => {
    const started = await call('POST', '/registry/auth/device', {});
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      user_code: 'WDJB-MJHT',
      verification_uri: 'https://registry.example/device',
      expires_in: 900,
      interval: 5,
    });
    expect(JSON.parse(fake.requests.at(-1)!.body.toString())).toEqual({
      client_id: 'rhizome-cli',
      scope: 'read write',
    });
    const deviceCode = (started.body as { device_code: string }).device_code;

    const pending = await poll(deviceCode);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ success: false, username: null, registry_url: fake.url });
    expect(JSON.parse(fake.requests.at(-1)!.body.toString())).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: deviceCode,
      client_id: 'rhizome-cli',
    });
    fake.slowDownOnce(deviceCode);
    const slower = await poll(deviceCode);
    expect(slower.body).toMatchObject({ success: false, username: null });
    expect((slower.body as { message: string }).message).toContain('10 s');
    expect(fs.existsSync(authFile())).toBe(false);

    fake.setDevice(deviceCode, 'approved', 'ada');
    const approved = await poll(deviceCode);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ success: true, username: 'ada', registry_url: fake.url });
    expect(fs.statSync(authFile()).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(authFile(), 'utf8')) as {
      token: string;
      registry_url: string;
      username: string;
    };
    expect(stored).toMatchObject({ registry_url: fake.url, username: 'ada' });
    expect(stored.token).toMatch(/^fake-jwt\./);
    expect((await call('GET', '/registry/auth/status')).body).toEqual({
      authenticated: true,
      username: 'ada',
      registry_url: fake.url,
      token_present: true,
    });
  });

  it('answers 403 when the user denies the login and 408 when the code expired (expired_token or upstream 410)', async () => {
    const denied = await startDevice();
    fake.setDevice(denied, 'denied');
    expect(await poll(denied)).toMatchObject({ status: 403, body: { error: 'HTTP_403' } });
    const expired = await startDevice();
    fake.setDevice(expired, 'expired');
    expect(await poll(expired)).toMatchObject({ status: 408, body: { error: 'HTTP_408' } });
    fake.failNext(410);
    expect(await poll(expired)).toMatchObject({ status: 408, body: { error: 'HTTP_408' } });
  });

  it('logs out: the credentials file is removed, with any registry secrets in the settings, and the status says so', async () => {
    expect(fs.existsSync(authFile())).toBe(true);
    await settings({ registry: { token: 'settings-token', credentials: 'settings-credentials' } });
    const loggedOut = await call('POST', '/registry/auth/logout');
    expect(loggedOut.status).toBe(200);
    expect(loggedOut.body).toMatchObject({ success: true, username: null });
    expect(fs.existsSync(authFile())).toBe(false);
    expect((await call('GET', '/registry/auth/status')).body).toEqual({
      authenticated: false,
      username: null,
      registry_url: null,
      token_present: false,
    });
    expect((await call('GET', '/settings')).body).toMatchObject({ registry: { token: null, credentials: null } });
  });

  it('logs in with a password (401 for a wrong one, nothing stored) and stores a token given directly', async () => {
    fake.addUser('grace', 'correct-horse');
    const wrong = await call('POST', '/registry/auth/login', { username: 'grace', password: 'wrong-horse' });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'HTTP_401' } });
    expect(fs.existsSync(authFile())).toBe(false);
    const right = await call('POST', '/registry/auth/login', { username: 'grace', password: 'correct-horse' });
    expect(right).toMatchObject({ status: 200, body: { success: true, username: 'grace', registry_url: fake.url } });
    expect(fs.statSync(authFile()).mode & 0o777).toBe(0o600);

    const before = fake.requests.length;
    const token = await call('POST', '/registry/auth/token', { token: 'eyJhbGciOi.direct.token', username: 'linus' });
    expect(token).toMatchObject({ status: 200, body: { success: true, username: 'linus', registry_url: fake.url } });
    expect(fake.requests.length).toBe(before);
    expect(JSON.parse(fs.readFileSync(authFile(), 'utf8'))).toMatchObject({
      token: 'eyJhbGciOi.direct.token',
      username: 'linus',
    });
    await call('POST', '/registry/auth/logout');
  });

  it('never reads a legacy credentials.json', async () => {
    fs.mkdirSync(path.dirname(authFile()), { recursive: true });
    fs.writeFileSync(
      path.join(path.dirname(authFile()), 'credentials.json'),
      JSON.stringify({ token: 'legacy-token', registry_url: fake.url, username: 'old' }),
    );
    expect((await call('GET', '/registry/auth/status')).body).toMatchObject({
      authenticated: false,
      token_present: false,
    });
    expect((await call('GET', '/registry/search')).status).toBe(200);
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('sends a stored token only to the registry that issued it', async () => {
    await call('POST', '/registry/auth/token', {
      token: 'other-registry-token',
      registry_url: 'https://other-registry.example/',
    });
    expect((await call('GET', '/registry/auth/status')).body).toMatchObject({
      authenticated: true,
      registry_url: 'https://other-registry.example',
    });
    expect((await call('GET', '/registry/search')).status).toBe(200);
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
    await call('POST', '/registry/auth/logout');
  });

  it('searches with paging, sort and filters, sending the stored token', async () => {
    fake.addPackage({
      name: 'medicine',
      ownerUsername: 'ada',
      description: 'clinical graph',
      starCount: 5,
      downloadCount: 10,
      packageType: 'KNOWLEDGE',
    });
    fake.addPackage({
      name: 'law',
      ownerUsername: 'grace',
      description: 'statutes',
      starCount: 9,
      downloadCount: 1,
      packageType: 'TEMPLATES',
      isPublic: false,
    });
    await call('POST', '/registry/auth/login', { username: 'grace', password: 'correct-horse' });
    const all = await call('GET', '/registry/search?sort_by=stars&limit=10');
    expect(all.status).toBe(200);
    const body = all.body as { packages: { name: string }[]; total: number; page: number; limit: number };
    expect(body).toMatchObject({ total: 2, page: 1, limit: 10 });
    expect(body.packages.map((item) => item.name)).toEqual(['law', 'medicine']);
    expect(body.packages[1]).toEqual({
      id: expect.any(String),
      name: 'medicine',
      description: 'clinical graph',
      owner_username: 'ada',
      owner_name: 'ada',
      owner_id: 'user_ada',
      is_public: true,
      package_type: 'KNOWLEDGE',
      star_count: 5,
      version_count: 1,
      download_count: 10,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    const sent = fake.requests.at(-1)!;
    expect(Object.fromEntries(sent.query)).toEqual({
      q: '',
      type: 'repositories',
      page: '1',
      limit: '10',
      sort: 'stars',
    });
    expect(sent.headers.authorization).toMatch(/^Bearer fake-jwt\./);

    const filtered = await call(
      'GET',
      '/registry/search?query=stat&is_public=false&package_type=TEMPLATES&owner_id=user_grace&page=1',
    );
    expect((filtered.body as { packages: { name: string }[] }).packages.map((item) => item.name)).toEqual(['law']);
    expect(Object.fromEntries(fake.requests.at(-1)!.query)).toMatchObject({
      q: 'stat',
      isPublic: 'false',
      packageType: 'TEMPLATES',
      ownerId: 'user_grace',
      limit: '50',
      sort: 'downloads',
    });
  });

  it.each(['limit=101', 'limit=0', 'page=0', 'sort_by=popularity', 'package_type=BOOKS'])(
    'rejects the search %s with 422 without asking the registry',
    async (query) => {
      const before = fake.requests.length;
      const result = await call('GET', `/registry/search?${query}`);
      expect(result.status).toBe(422);
      expect(result.body).toMatchObject({ error: 'VALIDATION_FAILED' });
      expect(fake.requests.length).toBe(before);
    },
  );

  it('shows one package, 404 for one the registry does not have', async () => {
    const found = await call('GET', '/registry/r/ada/medicine');
    expect(found).toMatchObject({
      status: 200,
      body: { name: 'medicine', owner_username: 'ada', package_type: 'KNOWLEDGE' },
    });
    const missing = await call('GET', '/registry/r/ada/astronomy');
    expect(missing).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', details: { resource_type: 'package', identifier: 'ada/astronomy' } },
    });
  });

  it.each([
    [401, 401, 'HTTP_401'],
    [403, 403, 'HTTP_403'],
    [404, 404, 'NOT_FOUND'],
    [408, 408, 'HTTP_408'],
    [410, 408, 'HTTP_408'],
  ])('maps an upstream %i to %i', async (upstream, status, code) => {
    fake.failNext(upstream);
    const result = await call('GET', '/registry/search');
    expect(result).toMatchObject({ status, body: { error: code } });
  });

  it.each([429, 500, 502, 302])(
    'maps any other upstream status (%i) to 503 REGISTRY_UPSTREAM_ERROR',
    async (upstream) => {
      fake.failNext(upstream);
      const result = await call('GET', '/registry/search');
      expect(result.status).toBe(503);
      expect(result.body).toEqual(upstreamFailure);
    },
  );

  it('treats a registry that does not answer in registry.timeout as an upstream failure', async () => {
    await settings({ registry: { timeout: 1 } });
    fake.setDelay(3_000);
    try {
      const result = await call('GET', '/registry/search');
      expect(result.status).toBe(503);
      expect(result.body).toEqual(upstreamFailure);
    } finally {
      fake.setDelay(0);
      await settings({ registry: { timeout: 60 } });
    }
  });

  it('treats an unreachable registry and a malformed answer as upstream failures', async () => {
    const down = await call('POST', '/registry/auth/login', {
      username: 'grace',
      password: 'correct-horse',
      registry_url: 'http://127.0.0.1:9',
    });
    expect(down).toMatchObject({ status: 503, body: upstreamFailure });
    fake.failNext(200);
    expect(await call('GET', '/registry/search')).toMatchObject({ status: 503, body: upstreamFailure });
  });

  describe('import and upload', () => {
    let ccx: Buffer;

    beforeAll(async () => {
      for (const label of ['Marie Curie', 'Polonium']) {
        const created = await call('POST', '/nodes', {
          template_id: 'system_template_item',
          label,
          properties: { definition: label },
        });
        expect(created.status).toBe(201);
      }
      ccx = await exportedPackage(server.platform, { database: 'default' });
      fake.addPackage({ name: 'chemistry', ownerUsername: 'ada', packageType: 'KNOWLEDGE' }, ccx);
      expect((await call('POST', '/databases', { name: 'pulled' })).status).toBe(201);
      expect((await call('PATCH', '/databases/current', { name: 'pulled' })).status).toBe(200);
    });

    it('downloads a package and imports it into the active database in the background (202)', async () => {
      const labels = async () =>
        ((await call('GET', '/nodes?page_size=100')).body as { data: { label: string }[] }).data
          .map((node) => node.label)
          .sort();
      expect(await labels()).toEqual([]);
      const queued = await call('POST', '/registry/import', { owner_username: 'ada', repo_name: 'chemistry' });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({
        status: 'queued',
        owner_username: 'ada',
        repo_name: 'chemistry',
        version: 'latest',
        task_id: expect.any(String),
      });
      expect(fake.requests.at(-1)!.path).toBe('/api/v1/packages/ada/chemistry/latest');
      const taskId = (queued.body as { task_id: string }).task_id;
      expect((await waitForTask(call, taskId, { timeoutMs: 20_000 })).status).toBe('completed');
      expect(await labels()).toEqual(['Marie Curie', 'Polonium']);
    });

    it('answers 404 for a package the registry does not have and 400 for one that is not a valid package, queueing nothing', async () => {
      const tasksBefore = ((await call('GET', '/queue/tasks')).body as { pagination: { total: number } }).pagination
        .total;
      const missing = await call('POST', '/registry/import', {
        owner_username: 'ada',
        repo_name: 'alchemy',
        version: '1.0.0',
      });
      expect(missing).toMatchObject({
        status: 404,
        body: { error: 'NOT_FOUND', details: { resource_type: 'package', identifier: 'ada/alchemy@1.0.0' } },
      });
      fake.addPackage({ name: 'broken', ownerUsername: 'ada' }, Buffer.from('this is not a zip archive'));
      const broken = await call('POST', '/registry/import', { owner_username: 'ada', repo_name: 'broken' });
      expect(broken.status).toBe(400);
      expect(((await call('GET', '/queue/tasks')).body as { pagination: { total: number } }).pagination.total).toBe(
        tasksBefore,
      );
    });

    it('uploads a package with the stored login: multipart, public and message passed on, 201 PackageInfo', async () => {
      const result = await upload(ccx, '?public=false&message=first%20release');
      expect(result.status).toBe(201);
      expect(result.body).toMatchObject({ owner_username: 'grace', is_public: false, description: 'first release' });
      const sent = fake.uploads.at(-1)!;
      expect(sent.fields).toEqual({ public: 'false', message: 'first release' });
      expect(sent.filename).toBe('package.ccx');
      expect(sent.contentType).toBe('application/zip');
      expect(sent.bytes.equals(ccx)).toBe(true);
    });

    it('prefers a registry token in the Authorization header, and answers 403 for one that may not publish', async () => {
      const token = fake.issueToken('ada');
      const asAda = await upload(ccx, '', { authorization: `Bearer ${token}` });
      expect(asAda).toMatchObject({ status: 201, body: { owner_username: 'ada', is_public: true } });
      fake.readOnly(token);
      expect(await upload(ccx, '', { authorization: `Bearer ${token}` })).toMatchObject({
        status: 403,
        body: { error: 'HTTP_403' },
      });
    });

    it('answers 503 when the registry fails the upload and 401 without any registry credentials', async () => {
      fake.failNext(500);
      expect(await upload(ccx)).toMatchObject({ status: 503, body: upstreamFailure });
      await call('POST', '/registry/auth/logout');
      const before = fake.requests.length;
      expect(await upload(ccx)).toMatchObject({ status: 401, body: { error: 'HTTP_401' } });
      expect(fake.requests.length).toBe(before);
    });

    it('refuses a package larger than batching.max_upload_bytes with 413 before contacting the registry', async () => {
      await settings({ batching: { max_upload_bytes: 1024 } });
      try {
        const before = fake.requests.length;
        const result = await upload(Buffer.alloc(4096, 1), '', { authorization: `Bearer ${fake.issueToken('ada')}` });
        expect(result).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
        expect(fake.requests.length).toBe(before);
      } finally {
        await settings({ batching: { max_upload_bytes: 5 * 1024 ** 3 } });
      }
    });
  });

  it('documents every registry endpoint in the OpenAPI document', async () => {
    const paths = ((await call('GET', '/openapi.json')).body as { paths: Record<string, unknown> }).paths;
    for (const route of [
      '/registry/auth/device',
      '/registry/auth/poll',
      '/registry/auth/login',
      '/registry/auth/token',
      '/registry/auth/logout',
      '/registry/auth/status',
      '/registry/search',
      '/registry/r/{owner}/{name}',
      '/registry/import',
      '/registry/upload',
    ]) {
      expect(paths[route]).toBeDefined();
    }
  });
});
