export { AccountService, type AccountResult, type ApiKeyView } from './account.ts';
export { apiKeyPrefix } from './api-keys.ts';
export { CredentialsFile, type Credentials, type CredentialsStore } from './credentials.ts';
export { ServerAuthStore, type ChangeChannel, type SqlRunner } from './server-store.ts';
export { RateLimiter } from './rate-limit.ts';
export { SecretName, ensureSecrets, readOrCreateSecret } from './secrets.ts';
export { findCookie, type CookieOptions } from './session-cookie.ts';
export { Verifier, type Identity, type PresentedCredentials, type AuthFiles, type AuthStores } from './verifier.ts';
