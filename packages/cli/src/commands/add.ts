import fs from 'node:fs/promises';
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { RequestError } from '@rhizome/client';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { Command } from 'commander';
import { ExitCode } from '../exit-codes.ts';
import { resolveInputs } from '../inputs.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { tagIds } from './tags.ts';

interface AddOptions {
  tag: string[];
  domain?: string;
  extract: boolean;
  wait?: boolean;
}

interface Added {
  input: string;
  source_id: string | null;
  status: string;
  error: string | null;
}

/** Uploads in flight at once: enough to keep the server busy, few enough not to crowd out other clients. */
const parallelUploads = 4;
const pollMs = 250;
/** The steps a bar counts: uploaded, indexed, and with extraction extracted and ready. */
const stepsOf: Record<SourceResponseBody['progress'], number> = {
  waiting_to_index: 1,
  indexing: 1,
  awaiting_input: 2,
  extracting: 3,
  ready: 4,
};

/** Where a source stops needing the CLI's attention: indexed without extraction, or done with it, or failed. */
function settled(source: SourceResponseBody, extract: boolean): boolean {
  if (source.status === 'error') return true;
  if (!extract)
    return source.status !== 'pending' && source.status !== 'indexing' && source.status !== 'vision_pending';
  return ['awaiting_confirmation', 'extracted', 'committed'].includes(source.status);
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

class AddRun {
  readonly results: Added[] = [];
  private readonly bars: MultiBar | null;
  private readonly barOf = new Map<Added, SingleBar>();

  constructor(
    private readonly remote: Remote,
    private readonly options: AddOptions,
  ) {
    const drawn = remote.io.interactive && !remote.json;
    this.bars = drawn
      ? new MultiBar(
          { format: ' {bar} {name} | {state}', hideCursor: true, clearOnComplete: false, stream: process.stderr },
          Presets.shades_grey,
        )
      : null;
  }

  private get steps(): number {
    return this.options.extract ? 4 : 2;
  }

  private track(added: Added): void {
    this.results.push(added);
    this.barOf.set(added, this.bars?.create(this.steps, 0, { name: added.input, state: added.status }) as SingleBar);
  }

  private show(added: Added, source?: SourceResponseBody): void {
    const done = added.status === 'error' || (source && settled(source, this.options.extract));
    const value = done ? this.steps : source ? Math.min(stepsOf[source.progress], this.steps) : 0;
    this.barOf.get(added)?.update(value, { state: added.error ? `error: ${added.error}` : added.status });
  }

  private accept(added: Added, source: SourceResponseBody): void {
    added.source_id = source.id;
    added.status = source.status;
    added.error = source.error_message;
    this.show(added, source);
  }

  private refuse(added: Added, error: unknown): void {
    if (!(error instanceof RequestError)) throw error;
    added.status = 'error';
    added.error = error.message;
    this.show(added);
  }

  async upload(file: { path: string; name: string }, fields: Record<string, unknown>): Promise<void> {
    const added: Added = { input: file.path, source_id: null, status: 'uploading', error: null };
    this.track(added);
    try {
      const blob = new File([await fs.readFile(file.path)], file.name);
      this.accept(added, await this.remote.client.upload(sourceEndpoints.upload, [blob], fields));
    } catch (error) {
      this.refuse(added, error);
    }
  }

  async importUrl(url: string, fields: Record<string, unknown>): Promise<void> {
    const added: Added = { input: url, source_id: null, status: 'fetching', error: null };
    this.track(added);
    try {
      this.accept(added, await this.remote.client.call(sourceEndpoints.importUrl, { body: { url, ...fields } }));
    } catch (error) {
      this.refuse(added, error);
    }
  }

  /** Follows every accepted source until it settles, moving its bar; each finished one is named when there are no bars. */
  async wait(): Promise<void> {
    let pending = this.results.filter((added) => added.source_id && added.status !== 'error');
    while (pending.length) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      const still: Added[] = [];
      await inParallel(pending, parallelUploads, async (added) => {
        const source = await this.remote.client.call(sourceEndpoints.get, { params: { source_id: added.source_id! } });
        this.accept(added, source);
        if (!settled(source, this.options.extract)) still.push(added);
        else if (!this.bars && !this.remote.json)
          this.remote.io.err(`${added.input}: ${added.status}${added.error ? ` (${added.error})` : ''}`);
      });
      pending = still;
    }
  }

  stop(): void {
    this.bars?.stop();
  }
}

async function add(remote: Remote, inputs: string[], options: AddOptions): Promise<number> {
  const { files, urls } = resolveInputs(inputs);
  const tags = await tagIds(remote, options.tag);
  const fields = { extract_entities: options.extract, ...(options.domain ? { domain: options.domain } : {}) };
  const run = new AddRun(remote, options);
  try {
    await inParallel(files, parallelUploads, (file) => run.upload(file, fields));
    for (const url of urls) await run.importUrl(url, fields);
    for (const added of run.results) {
      if (added.source_id)
        for (const tagId of tags)
          await remote.client.call(sourceEndpoints.addTag, { params: { source_id: added.source_id, tag_id: tagId } });
    }
    if (options.wait) await run.wait();
  } finally {
    run.stop();
  }
  const failed = run.results.filter((added) => added.status === 'error');
  if (remote.json) printJson(remote.io, run.results);
  else {
    for (const added of failed) remote.io.err(`${added.input}: ${added.error ?? 'failed'}`);
    const state = options.wait ? (options.extract ? 'processed' : 'indexed') : 'accepted';
    remote.io.out(
      `${run.results.length - failed.length} of ${run.results.length} ${state}${failed.length ? `, ${failed.length} failed` : ''}`,
    );
  }
  return failed.length ? ExitCode.failed : ExitCode.ok;
}

export function registerAdd(program: Command, runner: CommandRunner): void {
  program
    .command('add')
    .description('Add files, directories (recursively), globs and URLs as sources')
    .argument('<inputs...>', 'files, directories, quoted globs ("notes/**/*.md") or http(s) URLs')
    .option(
      '--tag <name>',
      'tag the sources (repeatable; created when missing)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--domain <domain>', 'the extraction domain instead of the detected one')
    .option('--no-extract', 'index only: no entity extraction')
    .option('--wait', 'wait until every source is processed, with a progress bar per file')
    .action(runner.remote((remote, inputs: string[], options: AddOptions) => add(remote, inputs, options)));
}
