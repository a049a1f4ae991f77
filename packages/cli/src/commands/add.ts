import fs from 'node:fs/promises';
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { RequestError } from '@rhizome/client';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { Command } from 'commander';
import { ExitCode } from '../exit-codes.ts';
import { confirmationHint } from './confirmation.ts';
import { resolveInputs } from '../inputs.ts';
import { repeated } from '../options.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { runFields, withRunFlags, type RunFlags } from './sources.ts';
import { tagIds } from './tags.ts';

interface AddOptions extends RunFlags {
  tag: string[];
  extract: boolean;
  wait?: boolean;
  quick?: boolean;
  vision?: boolean;
  normalize?: boolean;
  contentFiltering?: boolean;
  skipDuplicates?: boolean;
}

/** The upload fields the options set; one not given is left to the server's settings. */
const uploadFields = (options: AddOptions) => ({
  extract_entities: options.extract,
  ...runFields({ ...options, depth: options.quick ? 'quick' : options.depth }),
  ...(options.vision === undefined ? {} : { enable_vision: options.vision }),
  ...(options.normalize === undefined ? {} : { enable_normalization: options.normalize }),
  ...(options.contentFiltering === undefined ? {} : { content_filtering: options.contentFiltering }),
  ...(options.skipDuplicates ? { skip_duplicates: true } : {}),
});

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

/**
 * Where a source stands for `--wait`: still moving; done (indexed, or with extraction extracted); failed; or
 * parked at the confirmation gate, where it stays until someone confirms its domain.
 */
type Standing = 'moving' | 'done' | 'failed' | 'parked';

function standingOf(status: string, extract: boolean): Standing {
  if (status === 'error') return 'failed';
  if (status === 'awaiting_confirmation') return 'parked';
  if (!extract) return ['pending', 'indexing', 'vision_pending'].includes(status) ? 'moving' : 'done';
  return status === 'extracted' || status === 'committed' ? 'done' : 'moving';
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
          // The state before the name: a line too long for the terminal is cut at its end.
          { format: ' {bar} {state} | {name}', hideCursor: true, clearOnComplete: false, stream: process.stderr },
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

  standing(added: Added): Standing {
    return standingOf(added.status, this.options.extract);
  }

  private show(added: Added, source?: SourceResponseBody): void {
    const standing = this.standing(added);
    const finished = standing === 'done' || standing === 'failed';
    const value = finished ? this.steps : source ? Math.min(stepsOf[source.progress], this.steps) : 0;
    const state =
      standing === 'failed'
        ? `error: ${added.error ?? 'failed'}`
        : standing === 'parked'
          ? 'needs a decision'
          : added.status;
    this.barOf.get(added)?.update(value, { state });
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
      const source = await this.remote.client.upload(sourceEndpoints.upload, [blob], fields);
      this.accept(added, source);
      if (source.unpacked) await this.members(file.path, added, source, source.unpacked);
    } catch (error) {
      this.refuse(added, error);
    }
  }

  /** An archive or mailbox became several sources: one line each, and one per member it refused. */
  private async members(
    archive: string,
    first: Added,
    source: SourceResponseBody,
    unpacked: { source_ids: string[]; errors: { filename: string; error: string }[] },
  ): Promise<void> {
    const memberInput = (filename: string | null) => `${archive}: ${filename ?? '?'}`;
    first.input = memberInput(source.filename);
    this.barOf.get(first)?.update({ name: first.input });
    for (const id of unpacked.source_ids.slice(1)) {
      const member = await this.remote.client.call(sourceEndpoints.get, { params: { source_id: id } });
      const added: Added = { input: memberInput(member.filename), source_id: null, status: 'uploading', error: null };
      this.track(added);
      this.accept(added, member);
    }
    for (const refused of unpacked.errors) {
      const added: Added = {
        input: memberInput(refused.filename),
        source_id: null,
        status: 'error',
        error: refused.error,
      };
      this.track(added);
      this.show(added);
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

  /**
   * Follows every accepted source until it is done, failed or parked, moving its bar; each one done is named
   * when there are no bars (the failed and parked are reported at the end).
   */
  async wait(): Promise<void> {
    let pending = this.results.filter((added) => added.source_id && this.standing(added) === 'moving');
    while (pending.length) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      const still: Added[] = [];
      await inParallel(pending, parallelUploads, async (added) => {
        const source = await this.remote.client.call(sourceEndpoints.get, { params: { source_id: added.source_id! } });
        this.accept(added, source);
        const standing = this.standing(added);
        if (standing === 'moving') still.push(added);
        else if (standing === 'done' && !this.bars && !this.remote.json)
          this.remote.io.err(`${added.input}: ${added.status}`);
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
  const fields = uploadFields(options);
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
  const failed = run.results.filter((added) => run.standing(added) === 'failed');
  const parked = run.results.filter((added) => run.standing(added) === 'parked');
  if (remote.json) printJson(remote.io, run.results);
  else {
    for (const added of failed) remote.io.err(`${added.input}: ${added.error ?? 'failed'}`);
    for (const added of parked) remote.io.err(`${added.input}: ${confirmationHint(added.source_id)}`);
    const state = options.wait ? (options.extract ? 'processed' : 'indexed') : 'accepted';
    const got = run.results.length - failed.length - parked.length;
    remote.io.out(
      `${got} of ${run.results.length} ${state}${parked.length ? `, ${parked.length} waiting for a decision` : ''}${failed.length ? `, ${failed.length} failed` : ''}`,
    );
  }
  if (failed.length) return ExitCode.failed;
  return parked.length ? ExitCode.needsDecision : ExitCode.ok;
}

/** `add`, on the program and again as `source add`. */
export function registerAdd(parent: Command, runner: CommandRunner): void {
  const command = parent
    .command('add')
    .description(
      'Add files, directories (recursively, hidden files left out), globs and URLs as sources; an archive (.zip, .tar, .tar.gz) or mailbox (.eml, .mbox) adds each of its members',
    )
    .argument('<inputs...>', 'files, directories, archives, mailboxes, quoted globs ("notes/**/*.md") or http(s) URLs')
    .option('--tag <name>', 'tag the sources (repeatable; created when missing)', repeated, []);
  withRunFlags(command)
    .option('--quick', 'a quick extraction (the same as --depth quick)')
    .option('--no-extract', 'index only: no entity extraction')
    .option('--vision', 'describe images and scanned pages with the vision model')
    .option('--no-vision', 'no vision model')
    .option('--normalize', 'normalise entity names')
    .option('--no-normalize', 'no name normalisation')
    .option('--content-filtering', 'leave out boilerplate (navigation, footers) before extraction')
    .option('--no-content-filtering', 'extract from all the text')
    .option('--skip-duplicates', 'skip a file whose content is already a source instead of refusing it')
    .option(
      '--wait',
      'wait until every source is processed, with a progress bar per file; one that waits for its domain to be confirmed ends the wait with exit code 6',
    )
    .addHelpText('after', '\nAn option not given is left to the settings (--vision, --normalize, --content-filtering).')
    .action(runner.remote((remote, inputs: string[], options: AddOptions) => add(remote, inputs, options)));
}
