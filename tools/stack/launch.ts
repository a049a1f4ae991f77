import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SecretName, ensureSecrets, readOrCreateSecret } from '@rhizome/auth/secrets';
import { DataPaths, resolveConfigDir } from '@rhizome/core/paths';
import { getServiceStatus, type ServiceStatus } from '@rhizome/core/observability';
import { tlsStoreIn } from '@rhizome/cortex-api/tls/store';
import { requireBinary } from './binaries.ts';
import { followTls, nginxTlsOf } from './nginx-tls.ts';
import { assertPortsFree } from './ports.ts';
import { nginxTlsSockets, renderNginxConf, type NginxTls } from './render-nginx.ts';
import { renderRedisConf } from './render-redis.ts';
import { renderSupervisordConf } from './render-supervisord.ts';
import { repoDir } from './template.ts';

export interface StackOptions {
  dataDir: string;
  configDir?: string;
  publicPort: number;
  apiPort: number;
  authPort: number;
  redisPort: number;
  supervisorPort: number;
  /** Where nginx listens; everything else binds 127.0.0.1. */
  host?: string;
}

export interface RunningStack {
  /** nginx's address: `https://` while it answers HTTPS. */
  readonly publicUrl: string;
  apiDirectUrl: string;
  supervisorUrl: string;
  queueUrl: string;
  stop(): Promise<void>;
}

/** supervisord program name → the files worth showing when it does not come up. */
const programLogs: Record<string, string[]> = {
  valkey: ['valkey.stdout.log', 'valkey.log'],
  'auth-verify': ['auth-verify.stdout.log'],
  'cortex-api': ['cortex.stdout.log'],
  'neuron-worker': ['neuron.stdout.log'],
  nginx: ['nginx.stdout.log', 'nginx.log'],
};

const readyTimeoutMs = 50_000;
const stopTimeoutMs = 30_000;

/**
 * Renders nginx, queue store and supervisord configs into `<data_dir>/run/`, starts `supervisord -n` as a
 * child, and resolves once every program is RUNNING and nginx, cortex-api and auth-verify answer HTTP.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const host = options.host ?? '127.0.0.1';
  const paths = new DataPaths(path.resolve(options.dataDir));
  const configDir = path.resolve(options.configDir ?? resolveConfigDir());
  const binaries = {
    supervisord: requireBinary('supervisord'),
    nginx: requireBinary('nginx'),
    queueStore: requireBinary('valkey-server', 'redis-server'),
  };
  await assertPortsFree({
    'public (nginx)': { host, port: options.publicPort },
    'cortex-api': { host: '127.0.0.1', port: options.apiPort },
    'auth-verify': { host: '127.0.0.1', port: options.authPort },
    'queue store': { host: '127.0.0.1', port: options.redisPort },
    supervisord: { host: '127.0.0.1', port: options.supervisorPort },
  });

  const queueStoreDir = path.join(paths.root, 'valkey');
  await fs.mkdir(path.join(paths.runDir, 'nginx'), { recursive: true, mode: 0o700 });
  await fs.mkdir(paths.logsDir, { recursive: true });
  await fs.mkdir(queueStoreDir, { recursive: true, mode: 0o700 });
  await fs.mkdir(configDir, { recursive: true });
  await ensureSecrets(paths.secretsDir);
  const secrets = {
    edgeToken: readOrCreateSecret(paths.secretsDir, SecretName.edgeToken),
    supervisorPassword: readOrCreateSecret(paths.secretsDir, SecretName.supervisorPassword),
    queuePassword: readOrCreateSecret(paths.secretsDir, SecretName.queuePassword),
  };

  const queueUrl = `redis://:${encodeURIComponent(secrets.queuePassword)}@127.0.0.1:${options.redisPort}/0`;
  const supervisorUrl = `http://rhizome:${encodeURIComponent(secrets.supervisorPassword)}@127.0.0.1:${options.supervisorPort}/RPC2`;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const publicAddress = `${urlHost}:${options.publicPort}`;
  const plainUrl = `http://${publicAddress}`;
  const apiDirectUrl = `http://127.0.0.1:${options.apiPort}`;

  const supervisordConf = path.join(paths.runDir, 'supervisord.conf');
  const nginxConf = path.join(paths.runDir, 'nginx.conf');
  const renderNginxTo = async (file: string, tls: NginxTls | null) =>
    writePrivate(
      file,
      await renderNginxConf({
        listenHost: host,
        listenPort: options.publicPort,
        apiUpstream: `127.0.0.1:${options.apiPort}`,
        authUpstream: `127.0.0.1:${options.authPort}`,
        runDir: paths.runDir,
        logsDir: paths.logsDir,
        edgeToken: secrets.edgeToken,
        runAsRoot: process.getuid?.() === 0,
        tls,
      }),
    );
  // The certificate the API installs there is what nginx serves; nginx is reloaded when it changes.
  const tlsSource = { store: tlsStoreIn(paths.root), nginxBin: binaries.nginx };
  await fs.mkdir(tlsSource.store.dir, { recursive: true, mode: 0o700 });
  // Left behind only by an nginx that was killed; nginx cannot listen on them again.
  for (const socket of Object.values(nginxTlsSockets(paths.runDir))) await fs.rm(socket, { force: true });
  await renderNginxTo(nginxConf, nginxTlsOf(tlsSource));
  await writePrivate(
    path.join(paths.runDir, 'valkey.conf'),
    await renderRedisConf({
      port: options.redisPort,
      password: secrets.queuePassword,
      dataDir: queueStoreDir,
      logsDir: paths.logsDir,
    }),
  );
  await writePrivate(
    supervisordConf,
    await renderSupervisordConf({
      repoDir,
      dataDir: paths.root,
      configDir,
      runDir: paths.runDir,
      logsDir: paths.logsDir,
      supervisorPort: options.supervisorPort,
      supervisorPassword: secrets.supervisorPassword,
      apiPort: options.apiPort,
      authPort: options.authPort,
      queueUrl,
      supervisorUrl,
      nodeBin: process.execPath,
      nginxBin: binaries.nginx,
      queueStoreBin: binaries.queueStore,
    }),
  );

  const supervisord = spawn(binaries.supervisord, ['-n', '-c', supervisordConf], {
    cwd: paths.runDir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = new OutputTail();
  supervisord.stdout.on('data', (chunk: Buffer) => output.add(chunk));
  supervisord.stderr.on('data', (chunk: Buffer) => output.add(chunk));
  // If this process ends without stop(), supervisord still shuts its programs down cleanly.
  const stopOnExit = () => supervisord.kill('SIGTERM');
  process.on('exit', stopOnExit);

  const tls = followTls({
    ...tlsSource,
    confFile: nginxConf,
    pidFile: path.join(paths.runDir, 'nginx.pid'),
    logsDir: paths.logsDir,
    renderTo: renderNginxTo,
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.off('exit', stopOnExit);
      tls.close();
      await shutDown(supervisord, supervisorUrl);
    })();
    return stopping;
  };

  try {
    await waitUntilReady({
      supervisord,
      output,
      supervisorUrl,
      publicUrl: plainUrl,
      apiDirectUrl,
      authPort: options.authPort,
      logsDir: paths.logsDir,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    get publicUrl() {
      return `${tls.enabled ? 'https' : 'http'}://${publicAddress}`;
    },
    apiDirectUrl,
    supervisorUrl,
    queueUrl,
    stop,
  };
}

async function writePrivate(file: string, content: string): Promise<void> {
  await fs.writeFile(file, content, { mode: 0o600 });
  await fs.chmod(file, 0o600); // writeFile's mode only applies when it creates the file
}

/** The programs inherit supervisord's environment; a test runner's own variables must not leak into them. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name, value]) => !name.startsWith('VITEST') && !(name === 'NODE_ENV' && value === 'test'),
    ),
  );
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

interface ReadinessTarget {
  supervisord: ChildProcess;
  output: OutputTail;
  supervisorUrl: string;
  publicUrl: string;
  apiDirectUrl: string;
  authPort: number;
  logsDir: string;
}

async function waitUntilReady(target: ReadinessTarget): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  let services: ServiceStatus[] = [];
  for (;;) {
    if (exited(target.supervisord)) throw new Error(`supervisord exited early:\n${target.output.text()}`);
    const status = await getServiceStatus(target.supervisorUrl, 1000);
    services = status.services;
    const fatal = services.find((s) => s.state === 'FATAL');
    if (fatal)
      throw new Error(`${fatal.name} could not start (FATAL)\n${await logTails([fatal.name], target.logsDir)}`);
    const allRunning =
      status.available &&
      Object.keys(programLogs).every((name) => services.some((s) => s.name === name && s.state === 'RUNNING'));
    if (
      allRunning &&
      // 308: plain HTTP from another machine while nginx answers HTTPS.
      (await answers(`${target.publicUrl}/api/v1/auth/status`, (code) => code === 200 || code === 308)) &&
      (await answers(`${target.apiDirectUrl}/api/v1/auth/status`, (code) => code === 200)) &&
      (await answers(`http://127.0.0.1:${target.authPort}/api/v1/auth/verify`, (code) => code === 200 || code === 401))
    ) {
      return;
    }
    if (Date.now() > deadline) {
      const states = services.map((s) => `${s.name}=${s.state}`).join(' ') || 'supervisord not answering';
      const lagging = Object.keys(programLogs).filter(
        (name) => !services.some((s) => s.name === name && s.state === 'RUNNING'),
      );
      throw new Error(
        `stack not ready within ${readyTimeoutMs} ms (${states})\n` +
          (await logTails(lagging.length > 0 ? lagging : Object.keys(programLogs), target.logsDir)) +
          `\nsupervisord:\n${target.output.text()}`,
      );
    }
    await sleep(250);
  }
}

async function answers(url: string, accept: (status: number) => boolean): Promise<boolean> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return accept(response.status);
  } catch {
    return false;
  }
}

async function logTails(programs: string[], logsDir: string): Promise<string> {
  const parts: string[] = [];
  for (const program of programs) {
    for (const file of programLogs[program] ?? []) {
      const text = await fs.readFile(path.join(logsDir, file), 'utf8').catch(() => '');
      parts.push(`--- ${file} ---\n${text.split('\n').slice(-20).join('\n')}`);
    }
  }
  return parts.join('\n');
}

/** SIGTERM makes supervisord stop every program (TERM, then KILL after stopwaitsecs) and exit. */
async function shutDown(supervisord: ChildProcess, supervisorUrl: string): Promise<void> {
  if (exited(supervisord)) return;
  const pids = (await getServiceStatus(supervisorUrl, 1000)).services.flatMap((s) => (s.pid ? [s.pid] : []));
  const exit = once(supervisord, 'exit');
  supervisord.kill('SIGTERM');
  const done = await Promise.race([exit.then(() => true), sleep(stopTimeoutMs, false, { ref: false })]);
  if (done) return;
  supervisord.kill('SIGKILL');
  // supervisord puts each program in its own process group; take the groups down with it.
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await exit;
}

/** The last few KB of supervisord's own output, for error messages. */
class OutputTail {
  private buffer = '';

  add(chunk: Buffer): void {
    this.buffer = (this.buffer + chunk.toString('utf8')).slice(-8192);
  }

  text(): string {
    return this.buffer;
  }
}
