import { WatchedJsonFile } from '@rhizome/auth/json-file';

const defaultCookieName = 'cc_session';

// Renaming the cookie is rare and harmless to see late, so the settings file is checked at most this often.
const recheckMs = 1000;

/**
 * The session cookie's name (setting local_auth.cookie_name), read straight from the settings file,
 * so auth-verify follows a change without loading the settings module.
 */
export function cookieNameReader(settingsFile: string): () => string {
  const file = new WatchedJsonFile(settingsFile, (raw) => {
    const name = (raw as { local_auth?: { cookie_name?: unknown } })?.local_auth?.cookie_name;
    return typeof name === 'string' && name ? name : defaultCookieName;
  });
  let name = defaultCookieName;
  let checkedAt = -Infinity;
  return () => {
    const now = performance.now();
    if (now - checkedAt < recheckMs) return name;
    checkedAt = now;
    try {
      name = file.read() ?? defaultCookieName;
    } catch {
      name = defaultCookieName;
    }
    return name;
  };
}
