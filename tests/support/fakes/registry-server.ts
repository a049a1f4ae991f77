import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import JSZip from 'jszip';
import { serveOnLoopback, waitUnlessGone } from './http-fake.ts';

/**
 * A package registry on 127.0.0.1 speaking the registry's wire calls (docs/api-conventions.md#package-registry) under `/api/v1`: device
 * authorization (RFC 8628), password login, search, download and multipart upload, with failure
 * injection (the next requests answer a status) and a delay for timeouts.
 */

export type DeviceState = 'pending' | 'approved' | 'denied' | 'expired';

/** One package as the registry's search returns it (camelCase, times in ms). */
export interface FakePackage {
  id: string;
  name: string;
  description: string;
  ownerUsername: string;
  ownerName: string;
  ownerId: string;
  isPublic: boolean;
  packageType: string;
  starCount: number;
  versionCount: number;
  downloadCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RegistryFake {
  /** The registry's address (settings `registry.url` / REGISTRY_URL); the API is under `/api/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Users for `/auth/login`; tokens issued to them and through the device flow are accepted for uploads. */
  addUser(username: string, password: string): void;
  /** A package listed by search and served by download. */
  addPackage(info: Partial<FakePackage> & { name: string; ownerUsername: string }, bytes?: Buffer): FakePackage;
  /** Moves a device code on; `slowDownOnce` answers the next poll of it with `slow_down`. */
  setDevice(deviceCode: string, state: DeviceState, username?: string): void;
  slowDownOnce(deviceCode: string): void;
  /** Tokens that may read but not publish (uploads answer 403). */
  readOnly(token: string): void;
  /** The next `count` requests answer `status` with a JSON error body. */
  failNext(status: number, count?: number): void;
  setDelay(ms: number): void;
  /** Uploaded packages: the multipart fields and the file's bytes. */
  uploads: { fields: Record<string, string>; filename: string | null; contentType: string | null; bytes: Buffer }[];
  /** A token the registry accepts for `username`, as if issued elsewhere. */
  issueToken(username: string): string;
  close(): Promise<void>;
}

const basePath = '/api/v1';

export async function startRegistryFake(): Promise<RegistryFake> {
  const requests: RecordedRequest[] = [];
  const failures: number[] = [];
  const users = new Map<string, string>();
  const devices = new Map<string, { state: DeviceState; username: string | null; slowDown: boolean }>();
  const packages: { info: FakePackage; bytes: Buffer }[] = [];
  const tokens = new Map<string, string>();
  const readOnlyTokens = new Set<string>();
  const uploads: RegistryFake['uploads'] = [];
  let delayMs = 0;
  let sequence = 0;

  const issue = (username: string) => {
    const token = `fake-jwt.${randomBytes(12).toString('hex')}`;
    tokens.set(token, username);
    return token;
  };
  const addPackage: RegistryFake['addPackage'] = (info, bytes = Buffer.alloc(0)) => {
    sequence += 1;
    const full: FakePackage = {
      id: `repo_${sequence}`,
      description: '',
      ownerName: info.ownerUsername,
      ownerId: `user_${info.ownerUsername}`,
      isPublic: true,
      packageType: 'FULL',
      starCount: 0,
      versionCount: 1,
      downloadCount: 0,
      createdAt: 1_700_000_000_000 + sequence,
      updatedAt: 1_700_000_000_000 + sequence,
      ...info,
    };
    packages.push({ info: full, bytes });
    return full;
  };

  const route = async (request: RecordedRequest, res: ServerResponse): Promise<void> => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const body = () => JSON.parse(request.body.toString('utf8') || '{}') as Record<string, string>;
    const path = request.path.slice(basePath.length);
    if (request.method === 'POST' && path === '/auth/device/code') {
      const deviceCode = `dc_${randomBytes(8).toString('hex')}`;
      devices.set(deviceCode, { state: 'pending', username: null, slowDown: false });
      return json(200, {
        device_code: deviceCode,
        user_code: 'WDJB-MJHT',
        verification_uri: 'https://registry.example/device',
        verification_uri_complete: 'https://registry.example/device?user_code=WDJB-MJHT',
        expires_in: 900,
        interval: 5,
      });
    }
    if (request.method === 'POST' && path === '/auth/device/token') {
      const { device_code: code, grant_type: grant } = body();
      const device = devices.get(code);
      if (grant !== 'urn:ietf:params:oauth:grant-type:device_code' || !device)
        return json(400, { error: 'invalid_grant' });
      if (device.slowDown) {
        device.slowDown = false;
        return json(400, { error: 'slow_down' });
      }
      if (device.state === 'pending') return json(400, { error: 'authorization_pending' });
      if (device.state === 'denied') return json(400, { error: 'access_denied' });
      if (device.state === 'expired') return json(400, { error: 'expired_token' });
      devices.delete(code);
      return json(200, {
        access_token: issue(device.username!),
        token_type: 'Bearer',
        expires_in: 3600,
        username: device.username,
      });
    }
    if (request.method === 'POST' && path === '/auth/login') {
      const { username, password } = body();
      if (!users.has(username) || users.get(username) !== password) return json(401, { error: 'invalid_credentials' });
      return json(200, {
        token: issue(username),
        refresh_token: 'refresh',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
    }
    if (request.method === 'GET' && path === '/search')
      return json(200, {
        data: search(
          packages.map((entry) => entry.info),
          request.query,
        ),
      });
    const download = /^\/packages\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && download) {
      const [owner, name] = [decodeURIComponent(download[1]), decodeURIComponent(download[2])];
      const found = packages.find((entry) => entry.info.ownerUsername === owner && entry.info.name === name);
      if (!found) return json(404, { error: 'not_found' });
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': found.bytes.length });
      res.end(found.bytes);
      return;
    }
    if (request.method === 'POST' && path === '/packages') {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const owner = tokens.get(token);
      if (!owner) return json(401, { error: 'unauthorized' });
      if (readOnlyTokens.has(token)) return json(403, { error: 'forbidden' });
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type'] ?? '' },
        body: new Uint8Array(request.body),
      }).formData();
      const file = form.get('package');
      if (!(file instanceof File)) return json(400, { error: 'package field missing' });
      const bytes = Buffer.from(await file.arrayBuffer());
      const fields: Record<string, string> = {};
      for (const [key, value] of form.entries()) if (typeof value === 'string') fields[key] = value;
      uploads.push({ fields, filename: file.name, contentType: file.type || null, bytes });
      const name = await manifestName(bytes);
      return json(201, {
        data: addPackage(
          { name, ownerUsername: owner, isPublic: fields.public !== 'false', description: fields.message ?? '' },
          bytes,
        ),
      });
    }
    json(404, { error: 'no such route' });
  };

  const server = await serveOnLoopback(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? '/', 'http://fake');
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: target.pathname,
      query: target.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    requests.push(request);
    if (!(await waitUnlessGone(delayMs, res))) return;
    const failure = failures.shift();
    if (failure !== undefined) {
      res.writeHead(failure, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `injected ${failure}` }));
      return;
    }
    if (!target.pathname.startsWith(basePath)) {
      res.writeHead(404).end();
      return;
    }
    await route(request, res);
  });

  return {
    url: server.origin,
    requests,
    uploads,
    issueToken: issue,
    addUser: (username, password) => void users.set(username, password),
    addPackage,
    setDevice(deviceCode, state, username) {
      const device = devices.get(deviceCode);
      if (!device) throw new Error(`unknown device code ${deviceCode}`);
      device.state = state;
      device.username = username ?? device.username;
    },
    slowDownOnce(deviceCode) {
      devices.get(deviceCode)!.slowDown = true;
    },
    readOnly: (token) => void readOnlyTokens.add(token),
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close: server.close,
  };
}

const sorters: Record<string, (a: FakePackage, b: FakePackage) => number> = {
  stars: (a, b) => b.starCount - a.starCount,
  downloads: (a, b) => b.downloadCount - a.downloadCount,
  newest: (a, b) => b.createdAt - a.createdAt,
  updated: (a, b) => b.updatedAt - a.updatedAt,
  name: (a, b) => a.name.localeCompare(b.name),
  relevance: () => 0,
};

function search(all: FakePackage[], query: URLSearchParams): { hits: FakePackage[]; total: number } {
  const q = (query.get('q') ?? '').toLowerCase();
  const matching = all
    .filter((item) => !q || item.name.toLowerCase().includes(q) || item.description.toLowerCase().includes(q))
    .filter((item) => !query.has('isPublic') || String(item.isPublic) === query.get('isPublic'))
    .filter((item) => !query.has('ownerId') || item.ownerId === query.get('ownerId'))
    .filter((item) => !query.has('packageType') || item.packageType === query.get('packageType'))
    .sort(sorters[query.get('sort') ?? 'relevance'] ?? sorters.relevance);
  const limit = Number(query.get('limit') ?? 20);
  const page = Number(query.get('page') ?? 1);
  return { hits: matching.slice((page - 1) * limit, page * limit), total: matching.length };
}

async function manifestName(bytes: Buffer): Promise<string> {
  try {
    const manifest = JSON.parse(
      (await (await JSZip.loadAsync(bytes)).file('manifest.json')?.async('string')) ?? '{}',
    ) as { name?: string };
    return manifest.name?.split('/').pop() ?? 'uploaded';
  } catch {
    return 'uploaded';
  }
}
