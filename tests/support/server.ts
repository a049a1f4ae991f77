import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbedded, type EmbeddedServer } from '@rhizome/cli/embedded';
import { backendEnv, keepOpenApi } from './test-backend.ts';

export interface TestServer extends EmbeddedServer {
  dataDir: string;
  base: string;
  /** fetch against /api/v1 with JSON helpers; never throws on HTTP errors. */
  call(method: string, apiPath: string, options?: CallOptions): Promise<CallResult>;
  stop(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  cookie?: string;
  key?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
  /** The `name=value` part of the Set-Cookie header, when one was set. */
  cookie?: string;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-test-'));
}

/**
 * The embedded default on a free 127.0.0.1 port with its own data directory, storing where the run's
 * backend says (tests/support/test-backend.ts): SQLite files there, or a PostgreSQL database of its own.
 */
export async function startTestServer(
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    ...(await backendEnv(dataDir)),
    ...options.env,
  };
  delete env.RHIZOME_QUEUE_URL;
  const server = await startEmbedded({ host: '127.0.0.1', port: 0 }, env);
  const base = `${server.url}/api/v1`;
  await keepOpenApi(base);
  return {
    ...server,
    dataDir,
    base,
    call: (method, apiPath, callOptions) => call(base, method, apiPath, callOptions),
    async stop() {
      await server.stop();
    },
  };
}

export async function call(
  base: string,
  method: string,
  apiPath: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  } else if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${apiPath}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // a non-JSON body stays text
  }
  const setCookie = response.headers.get('set-cookie');
  return { status: response.status, headers: response.headers, body: parsed, text, cookie: setCookie?.split(';')[0] };
}

/** Sets up the account and returns the session cookie. */
export async function setUpAccount(
  server: TestServer,
  username = 'operator',
  password = 'correct horse battery',
): Promise<string> {
  const result = await server.call('POST', '/auth/setup', { body: { username, password } });
  if (result.status !== 201 || !result.cookie) throw new Error(`setup failed: ${result.status} ${result.text}`);
  return result.cookie;
}
