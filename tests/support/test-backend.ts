import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PostgresServer, quoteIdentifier } from '@rhizome/core/storage';

/**
 * Where the test servers of this run store: SQLite files in their data directory (the default), or a
 * throw-away PostgreSQL server (`RHIZOME_TEST_BACKEND=postgres`, which the `postgres` project of
 * vitest.config.ts sets), so the same test files run on either backend.
 */
export type TestBackend = 'sqlite' | 'postgres';

export const testBackend: TestBackend = process.env.RHIZOME_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** What the `postgres` project's global setup (tests/support/postgres-run.ts) hands every worker. */
export interface RunPostgres {
  /** A role that may create databases, connected to its own (`…/rhizome`). */
  url: string;
  /** Each worker appends the API requests its test servers answered here, one `METHOD /path status test-file` a line. */
  requestsFile: string;
  /** The first test server writes its OpenAPI document here, for the operations the report counts. */
  openApiFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    rhizomePostgres: RunPostgres | undefined;
  }
}

let provided: RunPostgres | undefined;

/** The run's server, as the global setup provided it (vitest is imported only here: tools import these helpers too). */
async function runPostgres(): Promise<RunPostgres> {
  if (provided) return provided;
  const { inject } = await import('vitest');
  provided = inject('rhizomePostgres');
  if (!provided)
    throw new Error(
      'RHIZOME_TEST_BACKEND=postgres needs the server of the postgres project: run `pnpm vitest run --project postgres <file>`',
    );
  return provided;
}

/** One database per data directory: a test server started again on its directory finds what it stored. */
const databaseOfDir = new Map<string, string>();
let created = 0;

/** The URL of the database `name` on the run's server. */
function databaseUrl(run: RunPostgres, name: string): string {
  const url = new URL(run.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The environment a test server (or a `rhizome` command in direct mode) on `dataDir` gets from the
 * backend: nothing on SQLite; on PostgreSQL, the URL of a database of its own, created on first use,
 * so no two test servers share `rhizome_system` (settings, queue, credentials) or a schema.
 */
export async function backendEnv(dataDir: string): Promise<Record<string, string>> {
  if (testBackend === 'sqlite') return {};
  const run = await runPostgres();
  let name = databaseOfDir.get(dataDir);
  if (!name) {
    name = `rz_${process.pid}_${++created}`;
    const admin = new PostgresServer(run.url, { maxConnections: 1 });
    try {
      await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    } finally {
      await admin.close();
    }
    databaseOfDir.set(dataDir, name);
    const { expect } = await import('vitest');
    recordRequests(run.requestsFile, () => path.relative(process.cwd(), expect.getState().testPath ?? 'unknown'));
  }
  return { RHIZOME_DATABASE_URL: databaseUrl(run, name), RHIZOME_POSTGRES_PREVIEW: '1' };
}

/** The backend's environment for a data directory a test server already stored in; none for another one. */
export function knownBackendEnv(dataDir: string): Record<string, string> {
  const name = databaseOfDir.get(dataDir);
  return name && provided ? { RHIZOME_DATABASE_URL: databaseUrl(provided, name), RHIZOME_POSTGRES_PREVIEW: '1' } : {};
}

let recording = false;

/**
 * Notes every request to /api/v1 that a server in this process answers, with its status, for the
 * report of the operations the PostgreSQL run exercised (Node's `http.server.request.start` channel).
 */
function recordRequests(requestsFile: string, testFile: () => string): void {
  if (recording) return;
  recording = true;
  diagnostics.subscribe('http.server.request.start', (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const pathname = (request.url ?? '').split('?')[0];
    if (!pathname.startsWith('/api/v1/')) return;
    // Asked at each request: a worker runs several test files one after another in one process.
    const file = testFile();
    response.once('finish', () => {
      const line = `${request.method} ${pathname.slice('/api/v1'.length)} ${response.statusCode} ${file}\n`;
      fs.appendFileSync(requestsFile, line);
    });
  });
}

/** Keeps the served OpenAPI document once per run, for the operations the report counts. */
export async function keepOpenApi(base: string): Promise<void> {
  if (testBackend === 'sqlite') return;
  const { openApiFile } = await runPostgres();
  if (fs.existsSync(openApiFile)) return;
  const response = await fetch(`${base}/openapi.json`);
  if (response.ok) fs.writeFileSync(openApiFile, await response.text());
}
