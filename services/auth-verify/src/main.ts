import http from 'node:http';
import { Verifier, ensureSecrets } from '@rhizome/auth';
import { createLogger, isLogLevel } from '@rhizome/core/logging';
import { DataPaths, resolveDataDir } from '@rhizome/core/paths';
import { closeServer, listen, listenOptionsFromEnv, stopOnSignals } from '@rhizome/core/runtime';
import { createAuthVerify } from './app.ts';
import { cookieNameReader } from './cookie-name.ts';

const paths = new DataPaths(resolveDataDir());
const level = process.env.RHIZOME_LOG_LEVEL;
const logger = createLogger('auth-verify', paths.logsDir, isLogLevel(level) ? level : 'INFO');
await ensureSecrets(paths.secretsDir);
// auth-verify never writes the credentials, so one change check per event-loop turn is enough.
const verifier = new Verifier(
  { credentialsFile: paths.credentialsFile, secretsDir: paths.secretsDir },
  cookieNameReader(paths.settingsFile),
  'once-per-turn',
);
const server = http.createServer(createAuthVerify({ verifier }));
server.keepAliveTimeout = 65_000;
const url = await listen(server, listenOptionsFromEnv(8081));
logger.info(`auth-verify listening on ${url}`);
stopOnSignals(logger, () => closeServer(server));
