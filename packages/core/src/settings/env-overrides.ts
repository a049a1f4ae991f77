import type { Settings, SettingsWarning } from '@rhizome/contracts/settings';
import { formatPath, setAt, type JsonObject } from './object-path.ts';
import { isKnownSettingPath, readOnlySettingKeys } from './schema-info.ts';
import { validateSettings } from './validate.ts';

/** One setting forced by an environment variable; the first candidate value that validates is used. */
export interface EnvOverride {
  variable: string;
  path: string[];
  candidates: unknown[];
}

const genericEnvPrefix = 'RHIZOME_SETTINGS__';

/**
 * The overrides the environment asks for, in the order they apply (later wins): REGISTRY_URL,
 * RHIZOME_QUEUE_URL and RHIZOME_LOG_LEVEL, then `RHIZOME_SETTINGS__<GROUP>__<KEY>` variables.
 */
export function readEnvOverrides(env: NodeJS.ProcessEnv): { overrides: EnvOverride[]; warnings: SettingsWarning[] } {
  const overrides: EnvOverride[] = [];
  const warnings: SettingsWarning[] = [];
  if (env.REGISTRY_URL)
    overrides.push({ variable: 'REGISTRY_URL', path: ['registry', 'url'], candidates: [env.REGISTRY_URL] });
  if (env.RHIZOME_QUEUE_URL) {
    const parsed = queueUrlOverrides(env.RHIZOME_QUEUE_URL);
    if (typeof parsed === 'string') warnings.push(envWarning('queue', 'RHIZOME_QUEUE_URL', parsed));
    else overrides.push(...parsed);
  }
  if (env.RHIZOME_LOG_LEVEL) {
    overrides.push({
      variable: 'RHIZOME_LOG_LEVEL',
      path: ['logging', 'level'],
      candidates: [env.RHIZOME_LOG_LEVEL.toUpperCase()],
    });
  }
  for (const variable of Object.keys(env).sort()) {
    const raw = env[variable];
    if (!variable.startsWith(genericEnvPrefix) || raw === undefined) continue;
    const path = variable.slice(genericEnvPrefix.length).toLowerCase().split('__');
    if (path.includes('') || readOnlySettingKeys.includes(path[0]) || !isKnownSettingPath(path)) {
      warnings.push(envWarning(formatPath(path), variable, 'names no setting'));
      continue;
    }
    overrides.push({ variable, path, candidates: parseEnvValue(raw) });
  }
  return { overrides, warnings };
}

/** JSON when the value parses as JSON, so numbers, booleans and arrays can be given; else the plain string. */
function parseEnvValue(raw: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed === raw ? [raw] : [parsed, raw];
  } catch {
    return [raw];
  }
}

/** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS; an error message when malformed. */
function queueUrlOverrides(value: string): EnvOverride[] | string {
  let url: URL;
  let password: string | null;
  try {
    url = new URL(value);
    password = url.password ? decodeURIComponent(url.password) : null;
  } catch {
    return 'is not a valid URL; ignored';
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return 'must be a redis:// or rediss:// URL; ignored';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const database = url.pathname.replace(/^\//, '');
  if (host === '') return 'has no host; ignored';
  if (!/^\d*$/.test(database)) return 'has a database that is not a number; ignored';
  const values: Record<string, unknown> = {
    backend: 'redis',
    queue_host: host,
    queue_port: url.port ? Number(url.port) : 6379,
    queue_password: password,
    queue_database: database ? Number(database) : 0,
    queue_ssl: url.protocol === 'rediss:',
  };
  return Object.entries(values).map(([key, candidate]) => ({
    variable: 'RHIZOME_QUEUE_URL',
    path: ['queue', key],
    candidates: [candidate],
  }));
}

/** `base` with every valid override applied; an override whose value does not validate is skipped with a warning. */
export function applyEnvOverrides(
  base: Settings,
  overrides: readonly EnvOverride[],
): { settings: Settings; applied: EnvOverride[]; warnings: SettingsWarning[] } {
  let settings = base;
  const applied: EnvOverride[] = [];
  const warnings: SettingsWarning[] = [];
  for (const override of overrides) {
    const outcome = withOverride(settings, override);
    if (typeof outcome === 'string') {
      warnings.push(
        envWarning(formatPath(override.path), override.variable, `has an invalid value (${outcome}); ignored`),
      );
    } else {
      settings = outcome;
      applied.push(override);
    }
  }
  return { settings, applied, warnings };
}

/** `settings` with the first candidate that validates, or the problems of the first candidate. */
function withOverride(settings: Settings, override: EnvOverride): Settings | string {
  let problem = '';
  for (const candidate of override.candidates) {
    const next = structuredClone(settings) as JsonObject;
    setAt(next, override.path, structuredClone(candidate));
    const issues = validateSettings(next);
    if (issues.length === 0) return next as Settings;
    problem ||= issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
  }
  return problem;
}

function envWarning(field: string, variable: string, message: string): SettingsWarning {
  return { field, message: `environment variable ${variable} ${message}`, severity: 'warning' };
}
