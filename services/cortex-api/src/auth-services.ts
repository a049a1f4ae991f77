import {
  AccountService,
  SecretName,
  ServerAuthStore,
  Verifier,
  ensureSecrets,
  readOrCreateSecret,
  type AuthFiles,
  type AuthStores,
} from '@rhizome/auth';
import type { Platform } from '@rhizome/core/platform';
import { systemSchema } from '@rhizome/core/storage';
import { tlsStoreOf } from './tls/index.ts';

/**
 * Where the account, the API keys and the session secret live: on the platform's PostgreSQL server
 * (`rhizome_system`) when it has one, so every process of the deployment signs in the same operator and
 * accepts the cookies another signed; else the data directory's files. A server without credentials yet
 * takes the files' own, so a deployment moving onto it keeps its sign-in.
 */
async function authSource(platform: Platform, files: AuthFiles): Promise<AuthFiles | AuthStores> {
  const server = platform.server;
  if (!server) return files;
  const { stores } = await ServerAuthStore.open(
    { query: (sql, values) => server.query<Record<string, unknown>>(sql, values) },
    platform.pubsub,
    { schema: systemSchema, importFrom: files },
  );
  return stores;
}

/** The verifier, the account service and the edge secret, wired to the platform's settings. */
export async function createAuthServices(platform: Platform) {
  const secretsDir = platform.paths.secretsDir;
  await ensureSecrets(secretsDir);
  const localAuth = () => platform.settings.get().local_auth;
  const verifier = new Verifier(
    await authSource(platform, { credentialsFile: platform.paths.credentialsFile, secretsDir }),
    () => localAuth().cookie_name,
  );
  const account = new AccountService(verifier, () => ({
    name: localAuth().cookie_name,
    ttlSeconds: localAuth().cookie_ttl_seconds,
    // Over HTTPS the session cookie is never sent in the clear, whatever the setting says.
    secure: localAuth().cookie_secure || tlsStoreOf(platform).read() !== null,
  }));
  return { verifier, account, edgeToken: readOrCreateSecret(secretsDir, SecretName.edgeToken) };
}
