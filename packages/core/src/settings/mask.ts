import { secretPlaceholder, secretSettingPaths, type Settings } from '@rhizome/contracts/settings';
import { getAt, isPlainObject, setAt, type JsonObject } from './object-path.ts';

/** A copy of `settings` with every secret shown as "configured" when set and null when unset. */
export function maskSettings(settings: Settings): Settings {
  const masked = structuredClone(settings);
  for (const path of secretSettingPaths) {
    const value = getAt(masked, path);
    setAt(masked as JsonObject, path, typeof value === 'string' && value !== '' ? secretPlaceholder : null);
  }
  return masked;
}

/**
 * Secrets in a PATCH body: the masked placeholder sent back means "keep the stored secret" and is
 * dropped; an empty string clears the secret like null does.
 */
export function normalizeSecretInput(body: JsonObject): JsonObject {
  const result = structuredClone(body);
  for (const [group, key] of secretSettingPaths) {
    const section = result[group];
    if (!isPlainObject(section) || !Object.hasOwn(section, key)) continue;
    if (section[key] === secretPlaceholder) delete section[key];
    else if (section[key] === '') section[key] = null;
  }
  return result;
}
