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
