import readline from 'node:readline/promises';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import { searchIndexEndpoints } from '@rhizome/contracts/api/search-indexes';
import {
  sourceEndpoints,
  sourceStatuses,
  type SourceResponseBody,
  type SourceStatus,
} from '@rhizome/contracts/api/sources';
import { filteringModes } from '@rhizome/contracts/settings';
import { Option, type Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { positiveInteger } from '../options.ts';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { confirmationHint } from './confirmation.ts';
import { registerQualityOn } from './quality.ts';
import { registerSearchOn } from './search.ts';

interface ListOptions {
  status?: SourceStatus;
  awaiting?: boolean;
  search?: string;
  all?: boolean;
  limit?: number;
  format?: 'table' | 'json';
}

/** How a source is extracted: the options `confirm`, `extract` and `add` share. */
export interface RunFlags {
  domain?: string;
  depth?: 'quick' | 'full';
  filteringMode?: (typeof filteringModes)[number];
}

export const runFields = (flags: RunFlags) => ({
  ...(flags.domain ? { domain: flags.domain } : {}),
  ...(flags.depth ? { analysis_depth: flags.depth } : {}),
  ...(flags.filteringMode ? { filtering_mode: flags.filteringMode } : {}),
});

/** Adds the extraction options (--domain, --depth, --filtering-mode) to a command. */
export function withRunFlags(command: Command): Command {
  return command
    .option('--domain <domain>', 'the extraction domain instead of the detected one')
    .addOption(new Option('--depth <depth>', 'how thoroughly to extract').choices(['quick', 'full']))
    .addOption(
      new Option('--filtering-mode <mode>', 'how strictly extracted entities are filtered').choices(filteringModes),
    );
}

const pageSize = 100;

/** Sources, newest first: one page of `pageSize` unless `all`, at most `limit`. */
async function fetchSources(remote: Remote, options: ListOptions): Promise<SourceResponseBody[]> {
  const status = options.awaiting ? 'awaiting_confirmation' : options.status;
  const size = Math.min(options.limit ?? pageSize, pageSize);
  const sources: SourceResponseBody[] = [];
  for (let page = 1; ; page++) {
    const result = await remote.client.call(sourceEndpoints.list, {
      query: { page, page_size: size, status, search: options.search },
    });
    sources.push(...result.data);
    const wanted = options.limit === undefined ? !options.all : sources.length >= options.limit;
    if (!result.pagination.has_next || wanted) break;
  }
  return options.limit === undefined ? sources : sources.slice(0, options.limit);
}

async function list(remote: Remote, options: ListOptions): Promise<void> {
  const sources = await fetchSources(remote, options);
  if (remote.json || options.format === 'json') return printJson(remote.io, sources);
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

async function get(remote: Remote, id: string): Promise<void> {
  const source = await remote.client.call(sourceEndpoints.get, { params: { source_id: id } });
  if (remote.json) return printJson(remote.io, source);
  const fields: [string, unknown][] = [
    ['id', source.id],
    ['name', source.filename ?? source.title ?? source.origin_url],
    ['status', `${source.status}${source.paused ? ' (paused)' : ''}`],
    ['type', source.source_type],
    ['domain', source.extraction_domain ?? source.forced_domain],
    ['depth', source.extraction_depth],
    ['chunks', `${source.chunk_count} (${source.embedded_chunk_count} embedded)`],
    ['step', source.step_description ?? source.current_step],
    ['error', source.error_message && `${source.error_stage ?? 'error'}: ${source.error_message}`],
  ];
  for (const [name, value] of fields)
    if (value !== null && value !== undefined) remote.io.out(`${name.padEnd(8)}${String(value)}`);
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

/**
 * Confirms each parked source's domain (the detected one unless `--domain` is given), which starts its
 * extraction; `--all` confirms every source waiting for it.
 */
async function confirm(remote: Remote, ids: string[], options: RunFlags & { all?: boolean }): Promise<void> {
  if (options.all && ids.length) throw new CliFailure('give source ids or --all, not both', ExitCode.usage);
  if (!options.all && !ids.length) throw new CliFailure('name the sources to confirm, or pass --all', ExitCode.usage);
  const targets = options.all
    ? (await fetchSources(remote, { awaiting: true, all: true })).map((source) => source.id)
    : ids;
  if (!targets.length && !remote.json) return remote.io.out('No source waits for its domain to be confirmed.');
  const body = runFields(options);
  await each(
    (on, id) => on.client.call(sourceEndpoints.confirm, { params: { source_id: id }, body }),
    (result) => `confirmed (domain ${result.domain ?? 'detected'}), extraction starts`,
  )(remote, targets);
}

/**
 * Extracts each source (again, replacing what it contributed, with `force`); one parked at the confirmation
 * gate (already, or parked by this request because its domain was never chosen) gets no run until its domain is
 * confirmed, which is said, with exit code 6.
 */
async function extract(remote: Remote, ids: string[], options: RunFlags & { force?: boolean }): Promise<number> {
  const results: { source_id: string; result: unknown }[] = [];
  let parked = 0;
  for (const id of ids) {
    const source = await remote.client.call(sourceEndpoints.get, { params: { source_id: id } });
    const result =
      source.status === 'awaiting_confirmation'
        ? null
        : await remote.client.call(extractionEndpoints.start, {
            params: { source_id: id },
            body: { ...runFields(options), force: options.force ?? false },
          });
    const waits = !result || result.status === 'awaiting_confirmation';
    if (waits) parked += 1;
    results.push({ source_id: id, result: result ?? { source_id: id, status: source.status } });
    if (!remote.json)
      remote.io.out(
        `${id}: ${waits ? confirmationHint(id) : options.force ? 're-extraction queued' : 'extraction queued'}`,
      );
  }
  if (remote.json) printJson(remote.io, results);
  return parked ? ExitCode.needsDecision : ExitCode.ok;
}

/** On a terminal, asks before deleting unless `--force`; elsewhere there is no one to ask. */
async function remove(remote: Remote, ids: string[], options: { force?: boolean }): Promise<number> {
  if (!options.force && process.stdin.isTTY && remote.io.interactive) {
    const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
    const answer = await prompt.question(`Delete ${ids.length} source(s) and what they contributed? [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      remote.io.err('Nothing deleted.');
      return ExitCode.failed;
    }
  }
  await each(
    (on, id) => on.client.call(sourceEndpoints.delete, { params: { source_id: id } }),
    () => 'deleted',
  )(remote, ids);
  return ExitCode.ok;
}

async function rebuildSearch(remote: Remote): Promise<void> {
  const result = await remote.client.call(searchIndexEndpoints.rebuild, {});
  if (remote.json) return printJson(remote.io, result);
  remote.io.out(result.message);
}

export function registerSources(program: Command, runner: CommandRunner): Command {
  const sources = program.command('sources').alias('source').description('List and manage sources');
  sources
    .command('ls', { isDefault: true })
    .alias('list')
    .description('List sources, newest first')
    .addOption(new Option('-s, --status <status>', 'only sources in this status').choices(sourceStatuses))
    .option('-a, --awaiting', 'only sources waiting for their domain to be confirmed')
    .option('--search <text>', 'only sources whose name contains this')
    .option('--all', `every page, not only the newest ${pageSize}`)
    .option('-n, --limit <n>', 'at most this many sources', positiveInteger)
    .addOption(new Option('-f, --format <format>', 'how to print them').choices(['table', 'json']).default('table'))
    .action(runner.remote((remote, options: ListOptions) => list(remote, options)));
  sources
    .command('get')
    .description('Show one source')
    .argument('<id>')
    .action(runner.remote((remote, id: string) => get(remote, id)));
  sources
    .command('rm')
    .alias('delete')
    .description('Delete sources and what they contributed to the graph')
    .argument('<ids...>')
    .option('-f, --force', 'do not ask first (asked only on a terminal)')
    .action(runner.remote((remote, ids: string[], options: { force?: boolean }) => remove(remote, ids, options)));
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
  withRunFlags(
    sources
      .command('confirm')
      .description('Confirm the domain of sources waiting for it; their extraction starts')
      .argument('[ids...]')
      .option('--all', 'every source waiting for its domain to be confirmed'),
  ).action(
    runner.remote((remote, ids: string[], options: RunFlags & { all?: boolean }) => confirm(remote, ids, options)),
  );
  withRunFlags(
    sources
      .command('extract')
      .description('Extract entities from indexed sources')
      .argument('<ids...>')
      .option(
        '--force',
        'also restart a running extraction, or re-extract an extracted one (replacing what it contributed)',
      ),
  ).action(
    runner.remote((remote, ids: string[], options: RunFlags & { force?: boolean }) => extract(remote, ids, options)),
  );
  sources
    .command('reextract')
    .description('Extract sources again (replacing what they contributed)')
    .argument('<ids...>')
    .action(runner.remote((remote, ids: string[]) => extract(remote, ids, { force: true })));
  registerSearchOn(sources, runner, 'Search the chunks and entities of the sources');
  sources
    .command('rebuild-search')
    .description('Rebuild the search indexes (re-embedding everything when the embedding model changed)')
    .action(runner.remote((remote) => rebuildSearch(remote)));
  registerQualityOn(sources, runner);
  return sources;
}
