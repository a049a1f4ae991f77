import { parseArgs } from 'node:util';
import { resolveDataDir, DataPaths } from '@rhizome/core/paths';
import { lockDataDir } from '@rhizome/core/runtime';
import { FileLock } from '@rhizome/core/runtime';
import { listenFailure, listenOptionsFromEnv, stopOnSignals, type ListenOptions } from '@rhizome/core/runtime';
import type { EmbeddedServer } from './embedded.ts';

const usage: Record<string, string> = {
  main: `Usage: rhizome <command> [options]

Commands:
  serve                  Start Rhizome on the embedded default (one process, no other services)
  worker                 Run a task worker process (against Redis/Valkey or the shared queue.db)
  db migrate status      Show the schema revision of each database
  db migrate rollback    Restore a database's newest pre-upgrade backup
  upgrade                Apply pending schema migrations to every database

Environment: HOST, PORT (default 127.0.0.1:8888), RHIZOME_DATA_DIR, RHIZOME_CONFIG_DIR.
Run 'rhizome <command> --help' for a command's options.`,
  serve: `Usage: rhizome serve [--host HOST] [--port PORT]

Starts the API, the worker and the auth check in one process on the embedded default
(SQLite queue, in-process pub/sub). Defaults: HOST or 127.0.0.1, PORT or 8888.`,
  worker: `Usage: rhizome worker

Runs neuron-worker: takes tasks from the queue the settings select (RHIZOME_QUEUE_URL or queue.*
settings for Redis/Valkey; otherwise <data_dir>/queue.db, shared with a running 'rhizome serve').
Several workers may run at once.`,
  status: `Usage: rhizome db migrate status

Prints, for each database, the applied revision and the pending migrations.`,
  rollback: `Usage: rhizome db migrate rollback [--database NAME]

Replaces the database (default: the active one) with its newest pre-upgrade backup
(databases/<name>/backups/pre-<rev>-<ts>.db). Stop the service first.`,
  upgrade: `Usage: rhizome upgrade

Applies pending migrations to every database, each after a backup.`,
  db: `Usage: rhizome db <command>

Commands:
  db migrate status      Show the schema revision of each database
  db migrate rollback    Restore a database's newest pre-upgrade backup

Run 'rhizome db migrate <command> --help' for a command's options.`,
};

type Out = (line: string) => void;
type Topic = 'serve' | 'worker' | 'status' | 'rollback' | 'upgrade';

/** Each command's words, help topic and the options it takes. */
const commands: Record<string, { topic: Topic; options: string[] }> = {
  serve: { topic: 'serve', options: ['host', 'port'] },
  worker: { topic: 'worker', options: [] },
  'db migrate status': { topic: 'status', options: [] },
  'db migrate rollback': { topic: 'rollback', options: ['database'] },
  upgrade: { topic: 'upgrade', options: [] },
};
/** Words that start commands without being one: their help lists what follows. */
const groups: Record<string, string> = { db: 'db', 'db migrate': 'db' };

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], out: Out = console.log, err: Out = console.error): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    err(`rhizome: ${(error as Error).message}\nRun 'rhizome --help' for the commands and their options.`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals.join(' ');
  const known = commands[command];
  if (!known) {
    if (command === '' || (values.help && groups[command])) {
      out(usage[groups[command] ?? 'main']);
      return 0;
    }
    err(`rhizome: ${groups[command] ? `'${command}' needs a command` : `unknown command '${command}'`}\n\n${usage[groups[command] ?? nearestGroup(command)]}`);
    return 2;
  }
  if (values.help) {
    out(usage[known.topic]);
    return 0;
  }
  const foreign = (['host', 'port', 'database'] as const).filter((option) => values[option] !== undefined && !known.options.includes(option));
  if (foreign.length) {
    err(`rhizome: '${command}' takes no --${foreign[0]} option\n\n${usage[known.topic]}`);
    return 2;
  }
  switch (known.topic) {
    case 'serve':
      return serve(values.host, values.port, err);
    case 'worker':
      await (await import('@rhizome/neuron-worker')).runWorkerProcess();
      return new Promise(() => undefined);
    case 'status':
      return migrationStatus(out);
    case 'rollback':
      return rollback(values.database, out, err);
    default:
      return upgrade(out);
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, host: { type: 'string' }, port: { type: 'string' }, database: { type: 'string' } },
  });
}

/** The help that lists the commands an unknown one was probably meant among. */
function nearestGroup(command: string): string {
  return command.startsWith('db ') ? 'db' : 'main';
}

async function serve(host: string | undefined, port: string | undefined, err: Out): Promise<number> {
  const env = { ...process.env, ...(host ? { HOST: host } : {}), ...(port ? { PORT: port } : {}) };
  let listenOn: ListenOptions;
  try {
    listenOn = listenOptionsFromEnv(8888, env);
  } catch (error) {
    err(`rhizome: ${(error as Error).message}`);
    return 2;
  }
  const lock = await lockDataDir(new DataPaths(resolveDataDir(env)));
  if (!(lock instanceof FileLock)) {
    err(`rhizome: ${lock.refusal}`);
    return 1;
  }
  let server: EmbeddedServer;
  try {
    server = await (await import('./embedded.ts')).startEmbedded(listenOn, env);
  } catch (error) {
    await lock.release();
    const reason = listenFailure(error, listenOn);
    if (!reason) throw error;
    err(`rhizome: ${reason}`);
    return 1;
  }
  server.platform.logger.info(`Rhizome (embedded default) listening on ${server.url}`);
  stopOnSignals(server.platform.logger, async () => {
    await server.stop();
    await lock.release();
  });
  return new Promise(() => undefined);
}

/** The platform of a one-shot command, loaded on demand: help and usage errors answer without loading it. */
async function cliPlatform(migrationPolicy: 'none' | 'apply') {
  const [{ createPlatform }, { InProcessPubSub }] = await Promise.all([import('@rhizome/core/platform'), import('@rhizome/queue')]);
  return createPlatform({ service: 'cli', migrationPolicy, pubsub: new InProcessPubSub() });
}

async function migrationStatus(out: Out): Promise<number> {
  const platform = await cliPlatform('none');
  try {
    for (const { name } of platform.databases.list()) {
      const db = await platform.databases.connection(name);
      const status = await platform.databases.migrator(name).status(db);
      out(`${name}: revision ${status.current_revision ?? 'none'}; applied ${status.applied.join(', ') || '-'}; pending ${status.pending.join(', ') || '-'}`);
    }
    return 0;
  } finally {
    await platform.close();
  }
}

async function rollback(database: string | undefined, out: Out, err: Out): Promise<number> {
  const platform = await cliPlatform('none');
  try {
    const name = database ?? platform.databases.currentName();
    const migrator = platform.databases.migrator(name);
    const backup = migrator.latestBackup();
    if (!backup) {
      err(`No pre-upgrade backup for database '${name}'`);
      return 1;
    }
    const db = await platform.databases.restore(name, backup);
    out(`Restored '${name}' from ${backup} (revision ${(await migrator.status(db)).current_revision ?? 'none'})`);
    return 0;
  } finally {
    await platform.close();
  }
}

async function upgrade(out: Out): Promise<number> {
  const platform = await cliPlatform('apply');
  try {
    for (const { name } of platform.databases.list()) {
      await platform.databases.connection(name);
      const result = platform.databases.startupResults.get(name);
      out(`${name}: ${result?.applied.length ? `applied ${result.applied.join(', ')}` : 'up to date'}${result?.backup_path ? ` (backup ${result.backup_path})` : ''}`);
    }
    return 0;
  } finally {
    await platform.close();
  }
}
