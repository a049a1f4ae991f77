// The one-shot `setup` service of deploy/compose.yaml: secrets in the shared data volume, and nginx.conf
// rendered for the compose network (the edge secret must be embedded in it).
import fs from 'node:fs/promises';
import path from 'node:path';
import { SecretName, ensureSecrets, readOrCreateSecret } from '@rhizome/auth/secrets';
import { DataPaths, resolveDataDir } from '@rhizome/core/paths';
import { tlsStoreIn } from '@rhizome/cortex-api/tls/store';
import { renderNginxConf } from './render-nginx.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const paths = new DataPaths(resolveDataDir());
await ensureSecrets(paths.secretsDir);
await fs.mkdir(path.join(paths.runDir, 'nginx'), { recursive: true, mode: 0o700 });
await fs.mkdir(paths.logsDir, { recursive: true });
const conf = path.join(paths.runDir, 'nginx.conf');
// A certificate installed while the containers run is served once setup has run again and nginx restarted;
// the nginx image has its stream module built in.
const tls = tlsStoreIn(paths.root);
await fs.writeFile(
  conf,
  await renderNginxConf({
    listenHost: '0.0.0.0',
    listenPort: Number(required('PORT')),
    apiUpstream: required('API_UPSTREAM'),
    authUpstream: required('AUTH_UPSTREAM'),
    runDir: paths.runDir,
    logsDir: paths.logsDir,
    edgeToken: readOrCreateSecret(paths.secretsDir, SecretName.edgeToken),
    runAsRoot: process.getuid?.() === 0,
    tls: tls.read() ? { certFile: tls.files.cert, keyFile: tls.files.key, streamModule: null } : null,
  }),
  { mode: 0o600 },
);
await fs.chmod(conf, 0o600);
console.log(`rendered ${conf}`);
