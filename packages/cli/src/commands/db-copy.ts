import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { loadServiceCommands } from '../local-modules.ts';
import { printJson, type Io } from '../output.ts';
import type { CommandRunner } from '../runner.ts';

type CopyModule = Pick<typeof import('@rhizome/core/storage'), 'copyDatabases' | 'CopyRefusal'>;
type CopyReport = import('@rhizome/core/storage').CopyReport;

const copyHelp = `
Stores:
  sqlite:PATH        a database directory (<data_dir>/databases/NAME) or its app.db; with --all a data directory
  postgres://user:password@host:5432/database#NAME
                     the Rhizome database NAME on that server (schema rhizome_NAME; also ?database=NAME);
                     without a name, the other side's

Copies every table (ids kept), the uploaded originals and the vector indexes, then reads the copy back
and compares each table's row count and checksum with the source's. The copy is built beside the target
and put in its place only once verified. Stop the Rhizome services using either side first: the command
refuses while 'rhizome serve' holds a data directory involved. A PostgreSQL database's files (originals,
vector caches) live in <data_dir>/databases/NAME of --data-dir (default RHIZOME_DATA_DIR).

Examples:
  rhizome db copy --from sqlite:~/.local/share/rhizome/databases/default --to postgres://rhizome:pw@db/rhizome
  rhizome db copy --all --from postgres://rhizome:pw@db/rhizome --to sqlite:/srv/rhizome --replace`;

/** Exit codes of the refusals: a bad argument is usage, a server not answering unreachable, no database not found. */
const exitCodes: Record<string, number> = {
  usage: ExitCode.usage,
  unreachable: ExitCode.unreachable,
  'not-found': ExitCode.notFound,
};

/**
 * The copy runs core's storage code, which the prebuilt command line leaves out: there the command is
 * handed over to the sources first (loadServiceCommands never settles in the prebuilt file).
 */
async function loadCopy(): Promise<CopyModule> {
  await loadServiceCommands();
  // A specifier the build does not follow: the storage code is loaded from the sources, not bundled.
  const storage = '@rhizome/core/storage';
  return (await import(storage)) as CopyModule;
}

function progressBar(io: Io): {
  database(name: string, index: number, count: number): void;
  update(progress: { phase: string; table?: string; done: number; total: number }): void;
  stop(): void;
} {
  let bar: SingleBar | null = null;
  let phase = '';
  let label = '';
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return {
    database(name, index, count) {
      stop();
      label = count > 1 ? `${name} (${index + 1}/${count})` : name;
      if (!io.interactive) io.err(`Copying ${label}`);
    },
    update(progress) {
      if (!io.interactive) return;
      const unit = progress.phase === 'files' ? 'bytes' : 'rows';
      if (progress.phase !== phase || !bar) {
        stop();
        phase = progress.phase;
        bar = new SingleBar(
          {
            format: ` {bar} {percentage}% | ${label} ${phase === 'rows' ? 'copying' : phase === 'verify' ? 'verifying' : 'files'} {table} | {value}/{total} ${unit}`,
            hideCursor: true,
            clearOnComplete: false,
            stream: process.stderr,
          },
          Presets.shades_grey,
        );
        bar.start(Math.max(progress.total, 1), 0, { table: '' });
      }
      bar.setTotal(Math.max(progress.total, 1));
      bar.update(progress.done, { table: progress.table ?? '' });
    },
    stop,
  };
}

function summary(report: CopyReport): string {
  const seconds = Math.max(report.copyMs, 1) / 1000;
  const files = report.files.inPlace
    ? `originals in place (${report.files.originals.files} files)`
    : `${report.files.originals.files} originals (${report.files.originals.bytes} bytes) and ${report.files.vectors.files} vector index files`;
  const lines = [
    `Copied ${report.from} to ${report.to}${report.replaced ? ' (replaced)' : ''}: ${report.rows} rows in ${report.tables.length} tables at revision ${report.revision}, ${files}`,
    `Verified: every table's row count and checksum match (checksum ${report.checksum.slice(0, 16)}); ${Math.round(report.rows / seconds)} rows/s, ${(report.totalMs / 1000).toFixed(1)} s in all`,
  ];
  if (report.files.missingOriginals.length)
    lines.push(
      `Warning: ${report.files.missingOriginals.length} source(s) had no original in the source's directory: ${report.files.missingOriginals.slice(0, 5).join(', ')}`,
    );
  return lines.join('\n');
}

async function copy(
  io: Io,
  options: { from?: string; to?: string; all?: boolean; replace?: boolean; dataDir?: string },
  command: Command,
): Promise<number> {
  if (!options.from || !options.to)
    throw new CliFailure(`db copy needs --from and --to\nRun 'rhizome db copy --help' for the usage.`, ExitCode.usage);
  const module = await loadCopy();
  const { resolveDataDir } = await import('@rhizome/core/paths');
  const bar = progressBar(io);
  let reports: CopyReport[];
  try {
    reports = await module.copyDatabases({
      from: options.from,
      to: options.to,
      all: options.all,
      replace: options.replace,
      dataDir: options.dataDir ?? resolveDataDir(),
      onDatabase: bar.database,
      onProgress: bar.update,
    });
  } catch (error) {
    bar.stop();
    if (error instanceof module.CopyRefusal)
      throw new CliFailure(error.message, exitCodes[error.reason] ?? ExitCode.failed);
    throw new CliFailure(`the copy failed: ${(error as Error).message}`);
  }
  bar.stop();
  if (command.optsWithGlobals<{ json?: boolean }>().json) printJson(io, reports.length === 1 ? reports[0] : reports);
  else for (const report of reports) io.out(summary(report));
  return ExitCode.ok;
}

/** `rhizome db copy`: one database, or every one, between SQLite and PostgreSQL, run on this machine. */
export function registerDbCopy(db: Command, runner: CommandRunner): void {
  db.command('copy')
    .description('Copy a database (or --all) between SQLite and PostgreSQL, verified (stop the service first)')
    .option('--from <store>', 'where the database is: sqlite:PATH or postgres://…#NAME')
    .option('--to <store>', 'where it goes: sqlite:PATH or postgres://…#NAME')
    .option('--all', 'copy every database of the source, each to the same name')
    .option('--replace', 'overwrite a target that already holds data')
    .option('--data-dir <dir>', "the data directory holding a PostgreSQL database's files (default RHIZOME_DATA_DIR)")
    // Its own help, not the `db` overview the group's subcommands inherit.
    .configureHelp({})
    .addHelpText('after', copyHelp)
    .action(
      runner.local(async (options: Parameters<typeof copy>[1], command: Command) => copy(runner.io, options, command)),
    );
}
