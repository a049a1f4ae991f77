import { resolveDataDir, DataPaths } from '@rhizome/core/paths';
import { lockDataDir } from '@rhizome/core/runtime';
import { storageBackendRefusal } from '@rhizome/core/storage';
import { FileLock } from '@rhizome/core/runtime';
import { listenFailure, listenOptionsFromEnv, stopOnSignals, type ListenOptions } from '@rhizome/core/runtime';
import type { EmbeddedServer } from './embedded.ts';
import type { Out } from './output.ts';

/** The commands that operate the service on this machine: serve, worker, db migrate, upgrade. */

export async function serve(host: string | undefined, port: string | undefined, err: Out): Promise<number> {
  const env = { ...process.env, ...(host ? { HOST: host } : {}), ...(port ? { PORT: port } : {}) };
  const refusal = await storageBackendRefusal(env);
  if (refusal) {
    err(`rhizome: ${refusal}`);
    return 2;
  }
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

export async function worker(): Promise<number> {
  await (await import('@rhizome/neuron-worker')).runWorkerProcess();
  return new Promise(() => undefined);
}

/** The platform of a one-shot command, loaded on demand: help and usage errors answer without loading it. */
async function cliPlatform(migrationPolicy: 'none' | 'apply') {
  const [{ createPlatform }, { InProcessPubSub }] = await Promise.all([
    import('@rhizome/core/platform'),
    import('@rhizome/queue'),
  ]);
  return createPlatform({ service: 'cli', migrationPolicy, pubsub: new InProcessPubSub() });
}

export async function migrationStatus(out: Out): Promise<number> {
  const platform = await cliPlatform('none');
  try {
    for (const { name } of platform.databases.list()) {
      const db = await platform.databases.connection(name);
      const status = await platform.databases.migrator(name).status(db);
      out(
        `${name}: revision ${status.current_revision ?? 'none'}; applied ${status.applied.join(', ') || '-'}; pending ${status.pending.join(', ') || '-'}`,
      );
    }
    return 0;
  } finally {
    await platform.close();
  }
}

export async function rollback(database: string | undefined, out: Out, err: Out): Promise<number> {
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

export async function upgrade(out: Out): Promise<number> {
  const platform = await cliPlatform('apply');
  try {
    for (const { name } of platform.databases.list()) {
      await platform.databases.connection(name);
      const result = platform.databases.startupResults.get(name);
      out(
        `${name}: ${result?.applied.length ? `applied ${result.applied.join(', ')}` : 'up to date'}${result?.backup_path ? ` (backup ${result.backup_path})` : ''}`,
      );
    }
    return 0;
  } finally {
    await platform.close();
  }
}
