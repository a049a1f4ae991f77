import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { TlsStore } from '@rhizome/cortex-api/tls/store';
import { nginxStreamModule } from './binaries.ts';
import type { NginxTls } from './render-nginx.ts';

const run = promisify(execFile);
/** The API writes a certificate as three files in a row; one reload for all of them. */
const settleMs = 200;
/** Old workers finish their requests before they exit; an open event stream may keep one for long. */
const oldWorkersWaitMs = 5000;

export interface NginxTlsSource {
  store: TlsStore;
  nginxBin: string;
}

/** What nginx serves for the store's current content: its certificate, or null while TLS is off. */
export function nginxTlsOf({ store, nginxBin }: NginxTlsSource): NginxTls | null {
  if (!store.read()) return null;
  return { certFile: store.files.cert, keyFile: store.files.key, streamModule: nginxStreamModule(nginxBin) };
}

/** Tells one content of the store from another, so that only a real change reloads nginx. */
function contentKey(store: TlsStore): string {
  const credentials = store.read();
  return credentials ? createHash('sha256').update(credentials.cert).update(credentials.key).digest('hex') : 'off';
}

/** The worker processes of the nginx master in `pidFile`; none where /proc cannot tell. */
function nginxWorkers(pidFile: string): number[] {
  try {
    const master = fs.readFileSync(pidFile, 'utf8').trim();
    const children = fs.readFileSync(`/proc/${master}/task/${master}/children`, 'utf8');
    return children.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export interface NginxTlsFollower {
  /** Whether nginx was last configured to answer HTTPS. */
  readonly enabled: boolean;
  close(): void;
}

export interface FollowOptions extends NginxTlsSource {
  confFile: string;
  pidFile: string;
  logsDir: string;
  /** Renders nginx's config for `tls` into `file`. */
  renderTo(file: string, tls: NginxTls | null): Promise<void>;
}

/**
 * Keeps a running nginx serving what the TLS store holds. The API (another process) installs and removes
 * certificates in the store's directory; on each change the config is rendered again, checked by
 * `nginx -t` (a pair caught halfway through being written fails here and waits for the next change), put in
 * place and loaded with `nginx -s reload`, which lets open connections finish; `enabled` changes once the old
 * workers are gone.
 */
export function followTls(options: FollowOptions): NginxTlsFollower {
  const { store, nginxBin, confFile } = options;
  const errorLog = `${options.logsDir}/nginx.log`;
  let applied = contentKey(store);
  let enabled = applied !== 'off';
  let timer: NodeJS.Timeout | undefined;
  let queue = Promise.resolve();

  const apply = async () => {
    const key = contentKey(store);
    if (key === applied) return;
    const tls = nginxTlsOf(options);
    const next = `${confFile}.next`;
    await options.renderTo(next, tls);
    try {
      await run(nginxBin, ['-t', '-q', '-c', next, '-e', errorLog]);
    } catch (error) {
      fs.rmSync(next, { force: true });
      throw new Error(`nginx refused the TLS change: ${(error as { stderr?: string }).stderr ?? String(error)}`);
    }
    fs.renameSync(next, confFile);
    const oldWorkers = nginxWorkers(options.pidFile);
    await run(nginxBin, ['-s', 'reload', '-c', confFile, '-e', errorLog]);
    // Until the old workers are gone they may still take a connection on the public port the old way.
    const deadline = Date.now() + oldWorkersWaitMs;
    while (Date.now() < deadline && nginxWorkers(options.pidFile).some((pid) => oldWorkers.includes(pid)))
      await sleep(50);
    applied = key;
    // Only now has the change taken over: until the old workers are gone, either way may answer.
    enabled = tls !== null;
  };

  const watcher = fs.watch(store.dir, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      queue = queue.then(apply).catch((error: unknown) => console.error(`stack: ${(error as Error).message}`));
    }, settleMs);
  });
  watcher.on('error', (error) => console.error(`stack: no longer following ${store.dir}: ${error.message}`));
  return {
    get enabled() {
      return enabled;
    },
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
