import type { ErrorObject } from 'ajv';
import { ajvFor } from '@rhizome/contracts/ajv';
import { SettingsSchema } from '@rhizome/contracts/settings';

export interface SettingsIssue {
  path: (string | number)[];
  message: string;
  /** The failed check: type, minimum, maximum, enum, pattern, missing … */
  type: string;
}

const check = ajvFor('settings').compile(SettingsSchema);

/**
 * Checks a complete settings object, one issue per bad field. Works in place: unknown keys are
 * removed and keys missing inside array items get their defaults before the check.
 */
export function validateSettings(candidate: unknown): SettingsIssue[] {
  if (check(candidate)) return [];
  const byField = new Map<string, SettingsIssue>();
  for (const error of check.errors ?? []) {
    const path = issuePath(candidate, error);
    const key = JSON.stringify(path);
    if (!byField.has(key)) byField.set(key, { path, message: describe(error), type: issueType(error) });
  }
  return [...byField.values()];
}

function issuePath(root: unknown, error: ErrorObject): (string | number)[] {
  const path: (string | number)[] = [];
  let node = root;
  for (const raw of error.instancePath.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    const step = Array.isArray(node) ? Number(segment) : segment;
    path.push(step);
    node = (node as Record<string | number, unknown>)[step];
  }
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  return path;
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'type':
      return `must be ${[error.params.type].flat().join(' or ')}`;
    case 'enum':
      return `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'required':
      return 'Field required';
    default:
      return error.message ?? 'invalid value';
  }
}

function issueType(error: ErrorObject): string {
  return error.keyword === 'required' ? 'missing' : error.keyword;
}
