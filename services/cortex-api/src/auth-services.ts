import { AccountService, SecretName, Verifier, ensureSecrets, readOrCreateSecret } from '@rhizome/auth';
import type { Platform } from '@rhizome/core/platform';
import { tlsStoreOf } from './tls/index.ts';

/** The verifier, the account service and the edge secret, wired to the platform's settings. */
export async function createAuthServices(platform: Platform) {
  const secretsDir = platform.paths.secretsDir;
  await ensureSecrets(secretsDir);
  const localAuth = () => platform.settings.get().local_auth;
  const verifier = new Verifier(
    { credentialsFile: platform.paths.credentialsFile, secretsDir },
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
