// Benchmark (issue 2): auth-verify verifications/s for a session cookie and for an API key against a bare
// node:http route on the same machine in the same run (with each server's CPU time per request, which
// load on a shared machine barely moves); then GET /auth/me through nginx, direct to cortex-api, and
// from a bare express route. Targets: auth-verify ≥ 0.7× bare node:http for both.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccountService, Verifier } from '@rhizome/auth';
import { DataPaths } from '@rhizome/core/paths';
import { getServiceStatus } from '@rhizome/core/observability';
import { startStack } from '../stack/launch.ts';
import { freePort, measureRounds, pinLoadGenerator, pinProcess, report, startProcess, stopProcess } from './harness.ts';

const verifyBudget = 0.7;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-bench-'));
const paths = new DataPaths(dataDir);
const verifier = new Verifier(
  { credentialsFile: paths.credentialsFile, secretsDir: paths.secretsDir },
  () => 'cc_session',
);
const account = new AccountService(verifier, () => ({ name: 'cc_session', ttlSeconds: 3600, secure: false }));
const cookie = (await account.setup('operator', 'benchmark password')).setCookie!.split(';')[0];
const { key } = await account.createKey('bench');

console.log(`auth-verify benchmark on ${os.cpus().length} cores, node ${process.version}, ${pinLoadGenerator()}`);

const barePort = await freePort();
const bare = await startProcess('tools/bench/servers/bare-http.ts', { PORT: String(barePort) }, /ready/);
const authPort = await freePort();
const authVerify = await startProcess(
  'services/auth-verify/src/main.ts',
  { PORT: String(authPort), RHIZOME_DATA_DIR: dataDir },
  /listening on/,
);
const verifyUrl = `http://127.0.0.1:${authPort}/api/v1/auth/verify`;
const verifyRounds = await measureRounds([
  { label: 'bare node:http 200', url: `http://127.0.0.1:${barePort}/`, pid: bare.pid },
  { label: 'auth-verify, session cookie', url: verifyUrl, headers: { cookie }, pid: authVerify.pid },
  {
    label: 'auth-verify, API key (cached)',
    url: verifyUrl,
    headers: { authorization: `Bearer ${key}` },
    pid: authVerify.pid,
  },
]);
report(verifyRounds);
for (const credential of verifyRounds.slice(1)) {
  const ratio = credential.requestsPerSecond / verifyRounds[0].requestsPerSecond;
  console.log(
    `  ${credential.label}: ${ratio.toFixed(2)}x bare node:http ${ratio >= verifyBudget ? 'ok' : 'MISSED'} (target ≥ ${verifyBudget}x on a quiet machine)`,
  );
}
await stopProcess(authVerify);
await stopProcess(bare);

const expressPort = await freePort();
const bareExpress = await startProcess('tools/bench/servers/bare-express.ts', { PORT: String(expressPort) }, /ready/);

const ports = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
const stack = await startStack({
  dataDir,
  publicPort: ports[0],
  apiPort: ports[1],
  authPort: ports[2],
  redisPort: ports[3],
  supervisorPort: ports[4],
});
for (const service of (await getServiceStatus(stack.supervisorUrl)).services) {
  if (service.pid) for (const pid of [service.pid, ...childPids(service.pid)]) pinProcess(pid);
}
try {
  report(
    await measureRounds([
      { label: 'bare express GET /auth/me', url: `http://127.0.0.1:${expressPort}/api/v1/auth/me` },
      {
        label: 'GET /auth/me direct to cortex-api (cookie)',
        url: `${stack.apiDirectUrl}/api/v1/auth/me`,
        headers: { cookie },
      },
      { label: 'GET /auth/me through nginx (cookie)', url: `${stack.publicUrl}/api/v1/auth/me`, headers: { cookie } },
      {
        label: 'GET /auth/me through nginx (API key)',
        url: `${stack.publicUrl}/api/v1/auth/me`,
        headers: { authorization: `Bearer ${key}` },
      },
    ]),
  );
} finally {
  await stopProcess(bareExpress);
  await stack.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** nginx serves from worker processes, children of the pid supervisord reports. */
function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
