import { Command, CommanderError } from 'commander';
import cliPackage from '../package.json' with { type: 'json' };
import { registerAdd } from './commands/add.ts';
import { registerAsk } from './commands/ask.ts';
import { registerCompletion } from './commands/completion.ts';
import { registerConfig } from './commands/config-command.ts';
import { registerDatabases } from './commands/databases.ts';
import { registerDbCopy } from './commands/db-copy.ts';
import { registerDiagnostics } from './commands/diagnostics.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerGraph } from './commands/graph.ts';
import { registerKeys } from './commands/keys.ts';
import { registerLogin } from './commands/login.ts';
import { registerMcp } from './mcp-command.ts';
import { registerQualityOn } from './commands/quality.ts';
import { offerDatabaseOption } from './options.ts';
import { registerRegistry } from './commands/registry.ts';
import { registerSearch } from './commands/search.ts';
import { registerSetup } from './commands/setup.ts';
import { registerSources } from './commands/sources.ts';
import { registerStatus } from './commands/status.ts';
import { registerTransfer } from './commands/transfer.ts';
import { ExitCode } from './exit-codes.ts';
import { loadServiceCommands as serviceCommands } from './local-modules.ts';
import type { Io, Out } from './output.ts';
import { CommandRunner } from './runner.ts';

const environment = `
Environment: HOST, PORT (default 127.0.0.1:8888), RHIZOME_DATA_DIR, RHIZOME_CONFIG_DIR for the service;
RHIZOME_URL and RHIZOME_API_KEY (or 'rhizome login') for the commands that talk to a running server.
Exit codes: 0 done, 1 failed, 2 wrong usage, 3 no server at the URL, 4 not authenticated, 5 not found,
6 a source waits for its domain to be confirmed, 130 a prompt ended with Ctrl+C.
Run 'rhizome <command> --help' for a command's options.`;

const dbUsage = `Usage: rhizome db <command>

Commands:
  db list                List the databases (-q: names only)
  db current             Show the active database (-v: its path, size and last change)
  db create <name>       Create a database
  db switch <name>       Make a database the active one
  db info <name>         A database's path, size and last change
  db delete <name>       Delete a database permanently (-y: without asking)
  db migrate status      Show the schema revision of each database
  db migrate apply       Apply pending migrations to every database, each after a backup
  db migrate rollback    Restore a database's newest pre-upgrade backup
  db copy                Copy a database (or --all) between SQLite and PostgreSQL, verified

Run 'rhizome db <command> --help' for a command's options.`;

/** The command tree: the service commands run here, the others talk to a running server. */
function buildProgram(io: Io, runner: CommandRunner): Command {
  const program = new Command('rhizome')
    .description('Rhizome: a local-first GraphRAG knowledge graph')
    .usage('<command> [options]')
    .option('--url <url>', 'the Rhizome server (default RHIZOME_URL, the login, or http://127.0.0.1:8888)')
    .option('--api-key <key>', 'an API key (default RHIZOME_API_KEY or the login)')
    .option('--json', 'print JSON instead of text')
    .version(cliPackage.version, '-V, --version', 'print the version')
    .addHelpText('after', environment);

  program
    .command('serve')
    .description('Start Rhizome on the embedded default (one process, no other services)')
    .option('--host <host>', 'interface to listen on (default HOST or 127.0.0.1)')
    .option('--port <port>', 'port to listen on (default PORT or 8888)')
    .addHelpText(
      'after',
      '\nStarts the API, the worker and the auth check in one process (SQLite queue, in-process pub/sub).',
    )
    .action(
      runner.local(async (options: { host?: string; port?: string }) =>
        (await serviceCommands()).serve(options.host, options.port, io.err),
      ),
    );
  program
    .command('worker')
    .description('Run a task worker process (against Redis/Valkey or the shared queue.db)')
    .addHelpText(
      'after',
      "\nTakes tasks from the queue the settings select (RHIZOME_QUEUE_URL or queue.* settings for Redis/Valkey;\notherwise <data_dir>/queue.db, shared with a running 'rhizome serve'). Several workers may run at once.",
    )
    .action(runner.local(async () => (await serviceCommands()).worker()));
  const db = program
    .command('db')
    .description('Manage the databases and their schema migrations')
    .usage('<command>')
    .configureHelp({ formatHelp: () => dbUsage });
  const migrate = db
    .command('migrate')
    .description('Schema migrations')
    .usage('<command>')
    .configureHelp({ formatHelp: () => dbUsage });
  migrate
    .command('status')
    .description('Show the schema revision of each database')
    .action(runner.local(async () => (await serviceCommands()).migrationStatus(io.out)));
  migrate
    .command('apply')
    .description('Apply pending schema migrations to every database, each after a backup (as upgrade)')
    .action(runner.local(async () => (await serviceCommands()).upgrade(io.out)));
  migrate
    .command('rollback')
    .description("Restore a database's newest pre-upgrade backup (stop the service first)")
    .option('--database <name>', 'the database (default: the active one)')
    .action(
      runner.local(async (options: { database?: string }) =>
        (await serviceCommands()).rollback(options.database, io.out, io.err),
      ),
    );
  registerDatabases(db, runner);
  registerDbCopy(db, runner);
  program
    .command('upgrade')
    .description('Apply pending schema migrations to every database, each after a backup')
    .action(runner.local(async () => (await serviceCommands()).upgrade(io.out)));

  for (const register of [
    registerLogin,
    registerAdd,
    registerSources,
    registerSearch,
    registerGraph,
    registerAsk,
    registerTransfer,
    registerRegistry,
    registerKeys,
    registerStatus,
    registerDoctor,
    registerDiagnostics,
    registerSetup,
    registerMcp,
    registerConfig,
  ])
    register(program, runner);
  const sources = program.commands.find((command) => command.name() === 'sources');
  if (sources) registerAdd(sources, runner);
  registerQualityOn(program, runner);
  const actingOnADatabase = new Set(['add', 'sources', 'search', 'graph', 'export', 'import', 'backup', 'quality']);
  for (const command of program.commands) if (actingOnADatabase.has(command.name())) offerDatabaseOption(command);
  registerCompletion(program, runner);
  return program;
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], out: Out = console.log, err: Out = console.error): Promise<number> {
  const io: Io = {
    out,
    err,
    write: (text) => void process.stdout.write(text),
    interactive: Boolean(process.stderr.isTTY),
  };
  const runner = new CommandRunner(io);
  const program = buildProgram(io, runner);
  let written = '';
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({
      writeOut: (text) => (written += text),
      writeErr: () => undefined,
      outputError: () => undefined,
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
      out(written.trimEnd());
      return ExitCode.ok;
    }
    err(usageError(program, argv, error));
    return ExitCode.usage;
  }
  if (written) out(written.trimEnd());
  return runner.exitCode;
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

/** The command the words of `argv` reach, and those words. */
function reached(program: Command, argv: string[]): { command: Command; words: string[] } {
  let command = program;
  const words: string[] = [];
  for (const word of argv) {
    if (word.startsWith('-')) break;
    const next = command.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));
    if (!next) {
      if (command.commands.length) words.push(word);
      break;
    }
    command = next;
    words.push(word);
  }
  return { command, words };
}

const helpOf = (command: Command) => command.helpInformation().trimEnd();

/** One line saying what was wrong, then the help of the command it was meant for; never a stack trace. */
function usageError(program: Command, argv: string[], error: CommanderError): string {
  const { command, words } = reached(program, argv);
  const phrase = words.join(' ');
  if (
    error.code === 'commander.unknownCommand' ||
    error.code === 'commander.help' ||
    (error.code === 'commander.excessArguments' && command.commands.length)
  ) {
    const problem =
      words.length > commandDepth(command) ? `unknown command '${phrase}'` : `'${phrase}' needs a command`;
    return `rhizome: ${problem}\n\n${helpOf(command)}`;
  }
  if (error.code === 'commander.unknownOption') {
    const option = /'([^']+)'/.exec(error.message)?.[1] ?? '';
    const elsewhere = allCommands(program).some(
      (other) => other !== command && other.options.some((known) => known.long === option),
    );
    if (elsewhere && command !== program) return `rhizome: '${phrase}' takes no ${option} option\n\n${helpOf(command)}`;
    return `rhizome: Unknown option '${option}'\nRun 'rhizome ${phrase ? `${phrase} ` : ''}--help' for the options.`;
  }
  return `rhizome: ${error.message.replace(/^error: /, '')}\nRun 'rhizome ${phrase ? `${phrase} ` : ''}--help' for the usage.`;
}

function commandDepth(command: Command): number {
  let depth = 0;
  for (let parent = command.parent; parent; parent = parent.parent) depth += 1;
  return depth;
}
