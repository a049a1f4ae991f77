import { CliFailure, ExitCode } from './exit-codes.ts';

/** A `key=value` option's value: JSON when it parses as JSON (numbers, booleans, lists), the text otherwise. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `key=value` options as properties; one without `=` is a usage error. */
export function propertiesOf(pairs: readonly string[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new CliFailure(`'${pair}' is not key=value`, ExitCode.usage);
    properties[pair.slice(0, at)] = valueOf(pair.slice(at + 1));
  }
  return properties;
}

/** A JSON object given on the command line (`--json-props`). */
export function jsonObjectOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliFailure('--json-props is not valid JSON', ExitCode.usage);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliFailure('--json-props must be a JSON object', ExitCode.usage);
  return parsed as Record<string, unknown>;
}

/** `properties` with `set` applied and the keys in `unset` removed. */
export function changed(
  properties: Record<string, unknown>,
  set: readonly string[],
  unset: readonly string[],
): Record<string, unknown> {
  const next = { ...properties, ...propertiesOf(set) };
  for (const key of unset) delete next[key];
  return next;
}
