import { WatchedJsonFile } from '@rhizome/auth/json-file';

const defaultCookieName = 'cc_session';

/**
 * The session cookie's name (setting local_auth.cookie_name), read straight from the settings file with
 * a stat check per call, so a change is seen at once without loading the settings module.
 */
export function cookieNameReader(settingsFile: string): () => string {
  const file = new WatchedJsonFile(settingsFile, (raw) => {
    const name = (raw as { local_auth?: { cookie_name?: unknown } })?.local_auth?.cookie_name;
    return typeof name === 'string' && name ? name : defaultCookieName;
  });
  return () => {
    try {
      return file.read() ?? defaultCookieName;
    } catch {
      return defaultCookieName;
    }
  };
}
