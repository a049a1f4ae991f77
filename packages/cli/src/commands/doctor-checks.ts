import fs from 'node:fs/promises';
import path from 'node:path';
import { RequestError } from '@rhizome/client';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { llmEndpoints } from '@rhizome/contracts/api/llm';
import { opsEndpoints, upgradeEndpoints } from '@rhizome/contracts/api/ops';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { resolveDataDir } from '@rhizome/core/paths';
import { reachPostgres, redactedUrl } from '@rhizome/core/storage';
import type { Remote } from '../remote.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

/** One finding of `rhizome doctor`: what was checked, how it stands, and what to do about it. */
export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  message: string;
  fix?: string;
}

const mib = 1024 ** 2;
const gib = 1024 ** 3;

const check = (name: string, status: CheckStatus, message: string, fix?: string): DoctorCheck => ({
  name,
  status,
  message,
  ...(fix ? { fix } : {}),
});

const formatBytes = (bytes: number) =>
  bytes >= gib ? `${(bytes / gib).toFixed(1)} GB` : `${Math.round(bytes / mib)} MB`;

/** The directory itself, or the closest one above it that exists (where it would be created). */
async function closestExisting(dir: string): Promise<string> {
  for (let current = dir; ; current = path.dirname(current)) {
    try {
      await fs.access(current);
      return current;
    } catch {
      if (path.dirname(current) === current) return current;
    }
  }
}

/** The data directory of this machine: that it exists and is writable, and the free space of its file system. */
export async function localChecks(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck[]> {
  const dataDir = resolveDataDir(env);
  const existing = await closestExisting(dataDir);
  const checks: DoctorCheck[] = [];
  if (existing !== dataDir)
    checks.push(
      check(
        'data directory',
        'fail',
        `${dataDir} does not exist`,
        'start the service once (`rhizome serve`) to create it, or set RHIZOME_DATA_DIR',
      ),
    );
  else
    try {
      await fs.access(dataDir, fs.constants.W_OK);
      checks.push(check('data directory', 'ok', `${dataDir} exists and is writable`));
    } catch {
      checks.push(check('data directory', 'fail', `${dataDir} is not writable`, `give your user write access to it`));
    }
  const stats = await fs.statfs(existing);
  const free = stats.bavail * stats.bsize;
  const space = `${formatBytes(free)} free on the file system of ${existing}`;
  if (free < 100 * mib) checks.push(check('disk space', 'fail', space, 'free disk space: at least 1 GB is advised'));
  else if (free < gib) checks.push(check('disk space', 'warn', space, 'free disk space: at least 1 GB is advised'));
  else checks.push(check('disk space', 'ok', space));
  return checks;
}

const remoteCheckNames = ['authentication', 'health', 'model server', 'queue', 'migrations'] as const;

const skipped = (names: readonly string[], reason: string) => names.map((name) => check(name, 'info', reason));

/** Runs a check that asks the server; a request that fails becomes a failed check instead of ending the command. */
async function asking(name: string, run: () => Promise<DoctorCheck>): Promise<DoctorCheck> {
  try {
    return await run();
  } catch (error) {
    return check(name, 'fail', `the server did not answer the check: ${(error as Error).message}`);
  }
}

/** The server at the URL, and what it says of itself: health, model server, queue, databases, migrations. */
export async function serverChecks(remote: Remote): Promise<DoctorCheck[]> {
  const { client, url } = remote;
  let setupNeeded: boolean;
  try {
    setupNeeded = (await client.call(authEndpoints.status)).setup_needed;
  } catch (error) {
    const unreachable = error instanceof TypeError && /fetch failed/.test(error.message);
    return [
      unreachable
        ? check(
            'server',
            'fail',
            `no Rhizome server answers at ${url}`,
            'start it with `pnpm start` or `rhizome serve`, or pass --url',
          )
        : check('server', 'fail', `${url} answers, but not as a Rhizome server: ${(error as Error).message}`),
      ...skipped(remoteCheckNames, 'skipped: no server to ask'),
    ];
  }
  const server = check('server', 'ok', `Rhizome answers at ${url}`);
  if (setupNeeded)
    return [
      server,
      check('authentication', 'fail', 'the server has no account yet', 'run `rhizome setup`'),
      ...skipped(remoteCheckNames.slice(1), 'skipped: needs an account'),
    ];
  const authentication = await authenticationCheck(remote);
  if (authentication.status === 'fail')
    return [server, authentication, ...skipped(remoteCheckNames.slice(1), 'skipped: needs authentication')];
  const health = await client.call(opsEndpoints.health).catch((error: unknown) => error as Error);
  return [
    server,
    authentication,
    healthCheck(health),
    ...(await Promise.all([
      asking('model server', () => modelServerCheck(remote)),
      asking('queue', () => queueCheck(remote)),
    ])),
    await asking('migrations', () => migrationsCheck(remote)),
  ];
}

async function authenticationCheck(remote: Remote): Promise<DoctorCheck> {
  const fix = `run \`rhizome login --url ${remote.url}\` (or \`rhizome setup\`), or set RHIZOME_API_KEY`;
  if (!remote.apiKey) return check('authentication', 'fail', 'no API key is configured for this server', fix);
  try {
    const { username } = await remote.client.call(authEndpoints.me);
    return check('authentication', 'ok', `the configured key signs in as ${username}`);
  } catch (error) {
    if (error instanceof RequestError && (error.status === 401 || error.status === 403))
      return check('authentication', 'fail', `the server refuses the configured key: ${error.message}`, fix);
    throw error;
  }
}

type Health = ResponseOf<typeof opsEndpoints.health>;

function healthCheck(health: Health | Error): DoctorCheck {
  if (health instanceof Error)
    return check('health', 'fail', `the server did not report its health: ${health.message}`);
  const describe = (status: string) =>
    Object.entries(health.checks)
      .filter(([, item]) => item.status === status)
      .map(([name, item]) => `${name} (${item.message})`)
      .join(', ');
  const failing = describe('error');
  if (failing) return check('health', 'fail', `failing: ${failing}`, 'see `rhizome health` for every check');
  const warnings = describe('warning');
  if (warnings) return check('health', 'warn', `warnings: ${warnings}`, 'see `rhizome health` for every check');
  return check('health', 'ok', `all ${Object.keys(health.checks).length} checks of Rhizome ${health.version} pass`);
}

async function modelServerCheck(remote: Remote): Promise<DoctorCheck> {
  const llm = await remote.client.call(llmEndpoints.health);
  const fix = 'check the provider settings (`rhizome setup --force --provider …`, or Settings in the web app)';
  const unhealthy = llm.instances.filter((instance) => instance.enabled && !instance.healthy);
  const instances = unhealthy.map((instance) => `${instance.base_url}: ${instance.error ?? 'not answering'}`);
  if (!llm.verified)
    return check('model server', 'fail', [`${llm.provider}: ${llm.message}`, ...instances].join('; '), fix);
  if (llm.missing_models.length)
    return check(
      'model server',
      'warn',
      `${llm.provider} answers, but lacks ${llm.missing_models.join(', ')}`,
      'install the models on the model server, or choose others in the settings',
    );
  if (instances.length) return check('model server', 'warn', instances.join('; '), fix);
  return check('model server', 'ok', `${llm.provider}: ${llm.message}`);
}

async function queueCheck(remote: Remote): Promise<DoctorCheck> {
  const { queues } = await remote.client.call(queueEndpoints.stats);
  const stuck = queues.filter((lane) => lane.queued > 0 && lane.workers === 0);
  const failed = queues.filter((lane) => lane.failed_recent > 0);
  const summary = queues
    .map((lane) => `${lane.queue}: ${lane.queued} queued, ${lane.running} running, ${lane.workers} worker(s)`)
    .join('; ');
  if (stuck.length)
    return check(
      'queue',
      'warn',
      `tasks wait with no worker to take them (${summary})`,
      'start a worker (`rhizome worker`), or restart `rhizome serve`',
    );
  if (failed.length)
    return check(
      'queue',
      'warn',
      `${failed.map((lane) => `${lane.failed_recent} ${lane.queue} task(s)`).join(', ')} failed recently`,
      'see the failed tasks in the web app, or GET /api/v1/queue/tasks?status=failed',
    );
  return check('queue', 'ok', summary);
}

/** The PostgreSQL server RHIZOME_DATABASE_URL names on this machine, reached directly. */
export async function postgresCheck(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  const url = env.RHIZOME_DATABASE_URL;
  if (!url)
    return check(
      'postgresql',
      'info',
      'not configured (RHIZOME_DATABASE_URL is unset: the databases are SQLite files)',
    );
  const reached = await reachPostgres(url);
  if (!reached.ok) return check('postgresql', 'fail', `${redactedUrl(url)}: ${reached.problem}`);
  const found = `PostgreSQL ${reached.server} answers at ${redactedUrl(url)} as ${reached.user}`;
  if (!reached.canCreateSchemas)
    return check(
      'postgresql',
      'fail',
      `${found}, but ${reached.user} may not create schemas in ${reached.database}`,
      `GRANT CREATE ON DATABASE ${reached.database} TO ${reached.user}`,
    );
  if (env.RHIZOME_POSTGRES_PREVIEW !== '1')
    return check(
      'postgresql',
      'warn',
      `${found}; the PostgreSQL backend is a preview in this version and starts only when asked for`,
      'set RHIZOME_POSTGRES_PREVIEW=1 to start on it, or unset RHIZOME_DATABASE_URL',
    );
  return check('postgresql', 'warn', `${found}; the PostgreSQL backend is a preview: some features run only on SQLite`);
}

async function migrationsCheck(remote: Remote): Promise<DoctorCheck> {
  const pending = await remote.client.call(upgradeEndpoints.pending);
  if (pending.ready) return check('migrations', 'ok', pending.message);
  return check('migrations', 'fail', pending.message, 'run `rhizome upgrade` (it backs up each database first)');
}

/** Every check, local first; the server's run whether or not the local ones pass. */
export async function doctorChecks(remote: Remote): Promise<DoctorCheck[]> {
  const [local, postgres, server] = await Promise.all([localChecks(), postgresCheck(), serverChecks(remote)]);
  return [...local, postgres, ...server];
}
