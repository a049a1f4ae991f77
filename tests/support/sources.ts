import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { CallResult, TestServer } from './server.ts';
import { until } from './wait.ts';

export interface UploadFile {
  name: string;
  content: string | Uint8Array;
  /** Form field; default `files` for /sources/batch, else `file`. */
  field?: string;
}

/** A multipart upload to /sources or /sources/batch, as a browser or curl sends it. */
export async function uploadSources(
  server: TestServer,
  cookie: string,
  route: string,
  files: UploadFile[],
  fields: Record<string, string> = {},
): Promise<CallResult> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) {
    form.append(
      file.field ?? (route === '/sources/batch' ? 'files' : 'file'),
      new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)]),
      file.name,
    );
  }
  const response = await fetch(`${server.base}${route}`, { method: 'POST', headers: { cookie }, body: form });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? (JSON.parse(text) as unknown) : null,
  };
}

/** Polls a source until its status is one of `statuses`. */
export async function waitForSource(
  server: TestServer,
  cookie: string,
  id: string,
  statuses: string[],
  timeoutMs = 30_000,
): Promise<SourceResponseBody> {
  let last: SourceResponseBody | undefined;
  try {
    return await until(
      async () => {
        last = (await server.call('GET', `/sources/${id}`, { cookie })).body as SourceResponseBody;
        return statuses.includes(last.status) ? last : undefined;
      },
      { timeoutMs, intervalMs: 30, what: `source ${id} to be ${statuses.join('/')}` },
    );
  } catch (error) {
    throw new Error(`source ${id} still ${last?.status}: ${last?.step_description}`, { cause: error });
  }
}

/**
 * Uploads documents of tests/fixtures/technical in one batch, auto-confirmed, and waits until each is
 * committed; answers file name → source id.
 */
export async function uploadTechnicalFixtures(
  server: TestServer,
  cookie: string,
  documents: readonly string[],
): Promise<Map<string, string>> {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/technical/${name}`, import.meta.url), 'utf8');
  const accepted = await uploadSources(
    server,
    cookie,
    '/sources/batch',
    documents.map((name) => ({ name, content: fixture(name) })),
    { auto_confirm: 'true' },
  );
  expect(accepted.status, accepted.text).toBe(202);
  const { files } = accepted.body as { files: SourceResponseBody[] };
  expect(files.map((file) => file.filename).sort()).toEqual([...documents].sort());
  const ids = new Map<string, string>();
  for (const { id, filename } of files) {
    const source = await waitForSource(server, cookie, id, ['committed', 'error'], 120_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    ids.set(filename ?? id, id);
  }
  return ids;
}
