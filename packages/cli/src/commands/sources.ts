import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import {
  sourceEndpoints,
  sourceStatuses,
  type SourceResponseBody,
  type SourceStatus,
} from '@rhizome/contracts/api/sources';
import { Option, type Command } from 'commander';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

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

/** One action applied to each source named, reported one line each. */
function each(verb: string, act: (remote: Remote, id: string) => Promise<unknown>) {
  return async (remote: Remote, ids: string[]): Promise<void> => {
    const results: { source_id: string; result: unknown }[] = [];
    for (const id of ids) {
      results.push({ source_id: id, result: (await act(remote, id)) ?? null });
      if (!remote.json) remote.io.out(`${id}: ${verb}`);
    }
    if (remote.json) printJson(remote.io, results);
  };
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
        each('deleted', (remote, id) => remote.client.call(sourceEndpoints.delete, { params: { source_id: id } })),
      ),
    );
  sources
    .command('pause')
    .description('Pause sources: none of their tasks starts until resumed')
    .argument('<ids...>')
    .action(
      runner.remote(
        each('paused', (remote, id) =>
          remote.client.call(sourcePauseEndpoints.pause, { params: { source_id: id }, body: {} }),
        ),
      ),
    );
  sources
    .command('resume')
    .description('Resume paused sources')
    .argument('<ids...>')
    .action(
      runner.remote(
        each('resumed', (remote, id) => remote.client.call(sourcePauseEndpoints.resume, { params: { source_id: id } })),
      ),
    );
  sources
    .command('reextract')
    .description('Extract sources again (replacing what they contributed)')
    .argument('<ids...>')
    .action(
      runner.remote(
        each('re-extraction queued', (remote, id) =>
          remote.client.call(extractionEndpoints.start, { params: { source_id: id }, body: { force: true } }),
        ),
      ),
    );
}
