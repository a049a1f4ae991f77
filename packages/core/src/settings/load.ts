import fs from 'node:fs';
import path from 'node:path';
import { defaultSettings, type Settings, type SettingsWarning } from '@rhizome/contracts/settings';
import { mergeSettings } from './merge.ts';
import { formatPath, getAt, isPlainObject, setAt, type FieldPath, type JsonObject } from './object-path.ts';
import { readOnlySettingKeys } from './schema-info.ts';
import { validateSettings } from './validate.ts';

export interface LoadedSettings {
  /** Defaults overlaid with the file's valid values. */
  settings: Settings;
  /** What was wrong with the file and has been replaced by defaults. */
  warnings: SettingsWarning[];
}

/** Reads the settings file. A missing file means defaults; a corrupt or partly invalid one is never fatal. */
export function loadSettingsFile(file: string): LoadedSettings {
  const field = path.basename(file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings(), warnings: [] };
    return fallback(field, `cannot be read (${(error as Error).message}); using defaults`);
  }
  return parseSettings(text, field);
}

/** The settings a stored document holds (`field` names it in warnings); none stored means defaults. */
export function parseSettings(text: string | undefined, field: string): LoadedSettings {
  if (text === undefined) return { settings: defaultSettings(), warnings: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return fallback(field, `is not valid JSON (${(error as Error).message}); using defaults`);
  }
  if (!isPlainObject(parsed)) return fallback(field, 'does not hold a JSON object; using defaults');
  for (const key of readOnlySettingKeys) delete parsed[key];
  return repair(mergeSettings(defaultSettings() as JsonObject, parsed), field);
}

function fallback(field: string, message: string): LoadedSettings {
  return { settings: defaultSettings(), warnings: [{ field, message, severity: 'warning' }] };
}

const maxRepairRounds = 5;

/** Puts the default back wherever the file's value is invalid, until the whole object validates. */
function repair(candidate: JsonObject, field: string): LoadedSettings {
  const defaults = defaultSettings();
  const warnings = new Map<string, SettingsWarning>();
  for (let round = 0; round < maxRepairRounds; round++) {
    const issues = validateSettings(candidate);
    if (issues.length === 0) return { settings: candidate as Settings, warnings: [...warnings.values()] };
    for (const issue of issues) {
      const target = repairTarget(issue.path, defaults);
      setAt(candidate, target, structuredClone(getAt(defaults, target)));
      const name = formatPath(target);
      warnings.set(name, {
        field: name,
        message: `invalid value in ${field} (${issue.message}); using the default`,
        severity: 'warning',
      });
    }
  }
  return fallback(field, 'could not be repaired; using defaults');
}

/** Array items have no default of their own, so a bad item resets the whole array. */
function repairTarget(issuePath: FieldPath, defaults: Settings): FieldPath {
  const firstIndex = issuePath.findIndex((segment) => typeof segment === 'number');
  let target = firstIndex === -1 ? issuePath : issuePath.slice(0, firstIndex);
  while (target.length > 1 && getAt(defaults, target) === undefined) target = target.slice(0, -1);
  return target;
}
