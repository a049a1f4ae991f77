import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbedded, type EmbeddedServer } from '@rhizome/cli/embedded';

/** The embedded default in this process, on a fresh data dir, with the account set up. */
export interface BenchServer {
  server: EmbeddedServer;
  base: string;
  dataDir: string;
  cookie: string;
  call(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  expectOk(method: string, apiPath: string, body?: unknown, status?: number): Promise<unknown>;
}

export async function startBenchServer(name: string, extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rhizome-${name}-bench-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_DATA_DIR: dataDir,
    RHIZOME_CONFIG_DIR: path.join(dataDir, 'config'),
    RHIZOME_LOG_LEVEL: 'warning',
    ...extraEnv,
  };
  delete env.RHIZOME_QUEUE_URL;
  const server = await startEmbedded({ host: '127.0.0.1', port: 0 }, env);
  const base = `${server.url}/api/v1`;
  const setup = await fetch(`${base}/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'correct horse battery' }),
  });
  if (setup.status !== 201) throw new Error(`setup: ${setup.status} ${await setup.text()}`);
  const cookie = setup.headers.get('set-cookie')!.split(';')[0];
  const call = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${base}${apiPath}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const expectOk = async (method: string, apiPath: string, body?: unknown, status = 200) => {
    const result = await call(method, apiPath, body);
    if (result.status !== status)
      throw new Error(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body).slice(0, 500)}`);
    return result.body;
  };
  return { server, base, dataDir, cookie, call, expectOk };
}
