import { parseArgs } from 'node:util';
import { InProcessPubSub } from '@rhizome/queue';
import { createPlatform } from '@rhizome/core/platform/create';
import { listenOptionsFromEnv, stopOnSignals } from '@rhizome/core/process/serve';
import { runWorkerProcess } from '@rhizome/neuron-worker';
import { startEmbedded } from './embedded.ts';

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
};

type Out = (line: string) => void;

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], out: Out = console.log, err: Out = console.error): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, host: { type: 'string' }, port: { type: 'string' }, database: { type: 'string' } },
  });
  const command = positionals.join(' ');
  const topic = { serve: 'serve', worker: 'worker', 'db migrate status': 'status', 'db migrate rollback': 'rollback', upgrade: 'upgrade' }[command];
  if (values.help || !topic) {
    (values.help || command === '' ? out : err)(usage[topic ?? 'main']);
    return values.help || command === '' ? 0 : 2;
  }
  switch (topic) {
    case 'serve':
      return serve(values.host, values.port);
    case 'worker':
      await runWorkerProcess();
      return new Promise(() => undefined);
    case 'status':
      return migrationStatus(out);
    case 'rollback':
      return rollback(values.database, out, err);
    default:
      return upgrade(out);
  }
}

async function serve(host: string | undefined, port: string | undefined): Promise<number> {
  const env = { ...process.env, ...(host ? { HOST: host } : {}), ...(port ? { PORT: port } : {}) };
  const server = await startEmbedded(listenOptionsFromEnv(8888, env), env);
  server.platform.logger.info(`Rhizome (embedded default) listening on ${server.url}`);
  stopOnSignals(server.platform.logger, () => server.stop());
  return new Promise(() => undefined);
}

async function migrationStatus(out: Out): Promise<number> {
  const platform = await createPlatform({ service: 'cli', migrationPolicy: 'none', pubsub: new InProcessPubSub() });
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
  const platform = await createPlatform({ service: 'cli', migrationPolicy: 'none', pubsub: new InProcessPubSub() });
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
  const platform = await createPlatform({ service: 'cli', migrationPolicy: 'apply', pubsub: new InProcessPubSub() });
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
