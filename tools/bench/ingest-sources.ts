import type { BenchServer } from './api-client.ts';

export interface SourceState {
  status: string;
  chunk_count: number;
  error_message: string | null;
  index_timings: Record<string, number> | null;
  indexing_started_at: string;
  indexing_completed_at: string;
}

/** Uploads one file through POST /sources, auto-confirmed and without extraction; gives its id. */
export async function uploadSource(bench: BenchServer, filename: string, content: Blob): Promise<string> {
  const form = new FormData();
  form.append('auto_confirm', 'true');
  form.append('extract_entities', 'false');
  form.append('file', content, filename);
  const response = await fetch(`${bench.base}/sources`, {
    method: 'POST',
    headers: { cookie: bench.cookie },
    body: form,
  });
  if (response.status !== 202) throw new Error(`upload ${filename}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Polls the source every 100 ms until it is indexed; an error fails the benchmark. */
export async function waitIndexed(bench: BenchServer, id: string): Promise<SourceState> {
  for (;;) {
    const source = (await bench.expectOk('GET', `/sources/${id}`)) as SourceState;
    if (source.status === 'indexed') return source;
    if (source.status === 'error') throw new Error(`source ${id}: ${source.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
