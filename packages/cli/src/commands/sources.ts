import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import {
  sourceEndpoints,
  sourceStatuses,
  type SourceResponseBody,
  type SourceStatus,
} from '@rhizome/contracts/api/sources';
import { Option, type Command } from 'commander';
import { ExitCode } from '../exit-codes.ts';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { confirmationHint } from './confirmation.ts';

interface ListOptions {
  status?: SourceStatus;
  search?: string;
  all?: boolean;
}

const pageSize = 100;

async function list(remote: Remote, options: ListOptions): Promise<void> {
  const sources: SourceResponseBody[] = [];
  for (let page = 1; ; page++) {
    const result = await remote.client.call(sourceEndpoints.list, {
      query: { page, page_size: pageSize, status: options.status, search: options.search },
    });
    sources.push(...result.data);
    if (!result.pagination.has_next || !options.all) break;
  }
  if (remote.json) return printJson(remote.io, sources);
  if (!sources.length) return remote.io.out('No sources.');
  table(
    remote.io,
    ['ID', 'STATUS', 'CHUNKS', 'NAME'],
    sources.map((source) => [
      source.id,
      `${source.status}${source.paused ? ' (paused)' : ''}`,
      String(source.chunk_count),
      source.filename ?? source.title ?? source.origin_url ?? '',
    ]),
  );
}

/** One action applied to each source named, reported one line each (`say` words what it did). */
function each<R>(act: (remote: Remote, id: string) => Promise<R>, say: (result: R) => string) {
  return async (remote: Remote, ids: string[]): Promise<void> => {
    const results: { source_id: string; result: unknown }[] = [];
    for (const id of ids) {
      const result = await act(remote, id);
      results.push({ source_id: id, result: result ?? null });
      if (!remote.json) remote.io.out(`${id}: ${say(result)}`);
    }
    if (remote.json) printJson(remote.io, results);
  };
}

/** Confirms each parked source's domain (the detected one unless `domain` is given), which starts its extraction. */
const confirm = (remote: Remote, ids: string[], { domain }: { domain?: string }) =>
  each(
    (on, id) => on.client.call(sourceEndpoints.confirm, { params: { source_id: id }, body: domain ? { domain } : {} }),
    (result) => `confirmed (domain ${result.domain ?? 'detected'}), extraction starts`,
  )(remote, ids);

/**
 * Extracts each source again; one parked at the confirmation gate (already, or parked by this request because
 * its domain was never chosen) gets no run until its domain is confirmed, which is said, with exit code 6.
 */
async function reextract(remote: Remote, ids: string[]): Promise<number> {
  const results: { source_id: string; result: unknown }[] = [];
  let parked = 0;
  for (const id of ids) {
    const source = await remote.client.call(sourceEndpoints.get, { params: { source_id: id } });
    const result =
      source.status === 'awaiting_confirmation'
        ? null
        : await remote.client.call(extractionEndpoints.start, { params: { source_id: id }, body: { force: true } });
    const waits = !result || result.status === 'awaiting_confirmation';
    if (waits) parked += 1;
    results.push({ source_id: id, result: result ?? { source_id: id, status: source.status } });
    if (!remote.json) remote.io.out(`${id}: ${waits ? confirmationHint(id) : 're-extraction queued'}`);
  }
  if (remote.json) printJson(remote.io, results);
  return parked ? ExitCode.needsDecision : ExitCode.ok;
}

export function registerSources(program: Command, runner: CommandRunner): void {
  const sources = program.command('sources').description('List and manage sources');
  sources
    .command('ls', { isDefault: true })
    .description('List sources, newest first')
    .addOption(new Option('--status <status>', 'only sources in this status').choices(sourceStatuses))
    .option('--search <text>', 'only sources whose name contains this')
    .option('--all', `every page, not only the newest ${pageSize}`)
    .action(runner.remote((remote, options: ListOptions) => list(remote, options)));
  sources
    .command('rm')
    .description('Delete sources and what they contributed to the graph')
    .argument('<ids...>')
    .action(
      runner.remote(
        each(
          (remote, id) => remote.client.call(sourceEndpoints.delete, { params: { source_id: id } }),
          () => 'deleted',
        ),
      ),
    );
  sources
    .command('pause')
    .description('Pause sources: none of their tasks starts until resumed')
    .argument('<ids...>')
    .action(
      runner.remote(
        each(
          (remote, id) => remote.client.call(sourcePauseEndpoints.pause, { params: { source_id: id }, body: {} }),
          () => 'paused',
        ),
      ),
    );
  sources
    .command('resume')
    .description('Resume paused sources')
    .argument('<ids...>')
    .action(
      runner.remote(
        each(
          (remote, id) => remote.client.call(sourcePauseEndpoints.resume, { params: { source_id: id } }),
          () => 'resumed',
        ),
      ),
    );
  sources
    .command('confirm')
    .description('Confirm the domain of sources waiting for it; their extraction starts')
    .argument('<ids...>')
    .option('--domain <domain>', 'the extraction domain instead of the detected one')
    .action(runner.remote((remote, ids: string[], options: { domain?: string }) => confirm(remote, ids, options)));
  sources
    .command('reextract')
    .description('Extract sources again (replacing what they contributed)')
    .argument('<ids...>')
    .action(runner.remote((remote, ids: string[]) => reextract(remote, ids)));
}
