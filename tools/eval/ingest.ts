/**
 * Ingests the kit's passages as a user would: each passage its own text source named after its title
 * (or by number, see `Naming`), uploaded through POST /sources/batch with `auto_confirm` and `extract_entities`, then waits until
 * every source is indexed and extracted (or failed).
 */
import type { EvalClient } from './client.ts';
import { passageFilenames, passageText, type Naming, type Passage } from './kit.ts';

export interface IngestTimes {
  /** Upload until no source is waiting to be indexed (chunks and their vectors written). */
  ingestSeconds: number;
  /** Upload until every source is committed (or failed): ingest plus extraction. */
  totalSeconds: number;
  failed: number;
  entities: number;
  relationships: number;
}

interface SourceStats {
  total_files: number;
  by_status: Record<string, number>;
}

/** The `total` of a paginated list. */
async function total(client: EvalClient, apiPath: string): Promise<number> {
  return (await client.json<{ pagination: { total: number } }>('GET', `${apiPath}?page_size=1`)).pagination.total;
}

const notYetIndexed = ['pending', 'indexing', 'vision_pending'];
const settled = ['committed', 'error'];

export async function ingestPassages(
  client: EvalClient,
  passages: readonly Passage[],
  options: { extract: boolean; names?: Naming; log?: (line: string) => void },
): Promise<IngestTimes> {
  const log = options.log ?? (() => {});
  const settings = await client.json<{ batching: { max_upload_files: number } }>('GET', '/settings');
  const perBatch = settings.batching.max_upload_files;
  const filenames = passageFilenames(passages, options.names);
  const started = performance.now();
  for (let start = 0; start < passages.length; start += perBatch) {
    const form = new FormData();
    form.append('auto_confirm', 'true');
    form.append('extract_entities', String(options.extract));
    passages.slice(start, start + perBatch).forEach((passage, offset) => {
      form.append('files', new Blob([passageText(passage)], { type: 'text/plain' }), filenames[start + offset]);
    });
    const result = await client.form<{ failed: number; errors: unknown[] }>('/sources/batch', form);
    if (result.failed) throw new Error(`upload refused: ${JSON.stringify(result.errors).slice(0, 500)}`);
    if ((start / perBatch) % 50 === 0)
      log(`uploaded ${Math.min(start + perBatch, passages.length)}/${passages.length}`);
  }

  const done = options.extract ? settled : [...settled, 'indexed'];
  let ingestSeconds: number | null = null;
  let lastLog = 0;
  for (;;) {
    const stats = await client.json<SourceStats>('GET', '/sources/stats');
    const count = (statuses: string[]) => statuses.reduce((sum, status) => sum + (stats.by_status[status] ?? 0), 0);
    const elapsed = (performance.now() - started) / 1000;
    if (ingestSeconds === null && count(notYetIndexed) === 0) ingestSeconds = elapsed;
    if (stats.total_files >= passages.length && count(done) === stats.total_files) {
      return {
        ingestSeconds: ingestSeconds ?? elapsed,
        totalSeconds: elapsed,
        failed: count(['error']),
        entities: await total(client, '/nodes'),
        relationships: await total(client, '/edges'),
      };
    }
    if (elapsed - lastLog > 30) {
      lastLog = elapsed;
      log(`${elapsed.toFixed(0)} s: ${JSON.stringify(stats.by_status)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
