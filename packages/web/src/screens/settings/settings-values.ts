import type { ValidationIssue } from '@rhizome/contracts/errors';
import { inShownUnit, type SettingField, type SettingGroup } from './settings-fields.ts';

/**
 * What a form input holds for a setting. A secret's input starts empty (a stored secret is never
 * echoed) and `null` there means "remove the stored one".
 */
export type FormValue = boolean | number | string | string[] | null;

const httpUrlPattern = '^https?://\\S+$';

export function toFormValue(field: SettingField, value: unknown): FormValue {
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'integer':
    case 'number':
      return typeof value === 'number' ? inShownUnit(field, value) : '';
    case 'secret':
      return '';
    case 'list':
    case 'numbers':
      return Array.isArray(value) ? value.map(String) : [];
    case 'json':
      return JSON.stringify(value ?? {}, null, 2);
    default:
      return typeof value === 'string' ? value : '';
  }
}

/** A number typed in the field's shown unit, as stored (whole for an integer setting). */
function inStoredUnit(field: SettingField, shown: number): number {
  if (!field.perUnit) return shown;
  const stored = shown * field.perUnit;
  return field.kind === 'integer' ? Math.round(stored) : stored;
}

/** The value to send for a form input, or the reason it cannot be sent. */
export function fromFormValue(field: SettingField, input: FormValue): { value: unknown } | { error: string } {
  switch (field.kind) {
    case 'integer':
    case 'number':
      if (input === '' || input === null) return field.nullable ? { value: null } : { error: 'Enter a value' };
      return { value: inStoredUnit(field, typeof input === 'number' ? input : Number(input)) };
    case 'numbers': {
      const numbers = (input as string[]).map(Number);
      return numbers.some((number) => Number.isNaN(number)) ? { error: 'Enter numbers only' } : { value: numbers };
    }
    case 'json':
      try {
        const parsed: unknown = JSON.parse(String(input));
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
          ? { value: parsed }
          : { error: 'Enter a JSON object, like {"key": "value"}' };
      } catch {
        return { error: 'This is not valid JSON' };
      }
    case 'text':
    case 'choice':
      return { value: input === '' && field.nullable ? null : input };
    default:
      return { value: input };
  }
}

/** The changed values of a group, or the field errors found before sending anything. */
export function changesOf(
  group: SettingGroup,
  saved: Record<string, unknown>,
  form: Record<string, FormValue>,
): { changed: Record<string, unknown>; errors: Record<string, string> } {
  const changed: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of group.fields) {
    if (field.readOnly || field.kind === 'elsewhere') continue;
    const input = form[field.key];
    if (field.kind === 'secret') {
      if (input === null) changed[field.key] = null;
      else if (typeof input === 'string' && input.trim()) changed[field.key] = input.trim();
      continue;
    }
    const result = fromFormValue(field, input);
    if ('error' in result) errors[field.key] = result.error;
    else if (JSON.stringify(result.value) !== JSON.stringify(saved[field.key])) changed[field.key] = result.value;
  }
  return { changed, errors };
}

/** A validation issue of PATCH /settings, worded for the person at the field. */
export function fieldMessage(field: SettingField | undefined, issue: ValidationIssue): string {
  switch (issue.type) {
    case 'minimum':
    case 'exclusiveMinimum':
      return field?.minimum !== undefined ? `Must be at least ${field.minimum}` : issue.msg;
    case 'maximum':
    case 'exclusiveMaximum':
      return field?.maximum !== undefined ? `Must be at most ${field.maximum}` : issue.msg;
    case 'type':
      if (field?.kind === 'integer') return 'Enter a whole number';
      if (field?.kind === 'number') return 'Enter a number';
      return issue.msg;
    case 'pattern':
      return field?.pattern === httpUrlPattern
        ? 'Enter an address starting with http:// or https://'
        : `Not in the expected format (${field?.pattern ?? 'pattern'})`;
    case 'minLength':
      return field?.minLength === 1 ? 'Cannot be empty' : `At least ${field?.minLength ?? 1} characters`;
    case 'enum':
      return 'Choose one of the listed values';
    default:
      return issue.msg.charAt(0).toUpperCase() + issue.msg.slice(1);
  }
}

/** Which field of the group an issue's `loc` (`['body', group?, key, …]`) points at. */
export function fieldKeyOf(group: SettingGroup, issue: ValidationIssue): string | undefined {
  const path = issue.loc[0] === 'body' ? issue.loc.slice(1) : issue.loc;
  const nested = group.key && !(group.fields.length === 1 && group.fields[0].key === group.key);
  const key = nested ? path[1] : path[0];
  return typeof key === 'string' ? key : undefined;
}
