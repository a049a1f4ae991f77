// Benchmark (issue 2): auth-verify verifications/s for a session cookie and for an API key against a bare
// node:http route on the same machine in the same run; then GET /auth/me through nginx, direct to
// cortex-api, and from a bare express route. Targets: auth-verify ≥ 0.7× bare node:http for both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccountService, Verifier } from '@rhizome/auth';
import { DataPaths } from '@rhizome/core/paths';
import { startStack } from '../stack/launch.ts';
import { freePort, measure, report, startProcess, stopProcess } from './harness.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-bench-'));
const paths = new DataPaths(dataDir);
const verifier = new Verifier({ credentialsFile: paths.credentialsFile, secretsDir: paths.secretsDir }, () => 'cc_session');
const account = new AccountService(verifier, () => ({ name: 'cc_session', ttlSeconds: 3600, secure: false }));
const cookie = (await account.setup('operator', 'benchmark password')).setCookie!.split(';')[0];
const { key } = await account.createKey('bench');

console.log(`auth-verify benchmark on ${os.cpus().length} cores, node ${process.version}`);

const barePort = await freePort();
const bare = await startProcess('tools/bench/servers/bare-http.ts', { PORT: String(barePort) }, /ready/);
const authPort = await freePort();
const authVerify = await startProcess('services/auth-verify/src/main.ts', { PORT: String(authPort), RHIZOME_DATA_DIR: dataDir }, /listening on/);
const verifyUrl = `http://127.0.0.1:${authPort}/api/v1/auth/verify`;
const reference = await measure('bare node:http 200', `http://127.0.0.1:${barePort}/`);
const verifyResults = [
  reference,
  await measure('auth-verify, session cookie', verifyUrl, { cookie }),
  await measure('auth-verify, API key (cached)', verifyUrl, { authorization: `Bearer ${key}` }),
];
await stopProcess(authVerify);
await stopProcess(bare);
report(verifyResults, reference);

const expressPort = await freePort();
const bareExpress = await startProcess('tools/bench/servers/bare-express.ts', { PORT: String(expressPort) }, /ready/);
const expressReference = await measure('bare express GET /auth/me', `http://127.0.0.1:${expressPort}/api/v1/auth/me`);
await stopProcess(bareExpress);

const ports = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
const stack = await startStack({ dataDir, publicPort: ports[0], apiPort: ports[1], authPort: ports[2], redisPort: ports[3], supervisorPort: ports[4] });
try {
  const meResults = [
    expressReference,
    await measure('GET /auth/me direct to cortex-api (cookie)', `${stack.apiDirectUrl}/api/v1/auth/me`, { cookie }),
    await measure('GET /auth/me through nginx (cookie)', `${stack.publicUrl}/api/v1/auth/me`, { cookie }),
    await measure('GET /auth/me through nginx (API key)', `${stack.publicUrl}/api/v1/auth/me`, { authorization: `Bearer ${key}` }),
  ];
  report(meResults, expressReference);
} finally {
  await stack.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
