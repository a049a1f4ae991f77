import { type ValidationIssue } from '@rhizome/contracts/errors';
import { stringLikeTypes, type PropertyDefinition } from './property-types.ts';

/** The template id of a node, or null when no such node exists. */
export type NodeTemplateLookup = (nodeId: string) => Promise<string | null>;

type Loc = (string | number)[];

/**
 * Checks the properties of a node or edge against its template's definitions (the API's
 * PropertyDefinition): required, the property type, enum values, the validation pattern and node
 * references. Names the definitions do not mention are free-form extra properties and pass. Each issue
 * names the property: `loc` is `[...loc, name]` (and the list index for node_reference_list items).
 */
export async function validatePropertyValues(
  definitions: PropertyDefinition[],
  properties: Record<string, unknown>,
  nodeTemplateOf: (nodeId: string) => Promise<string | null>,
  loc: (string | number)[] = ['body', 'properties'],
): Promise<ValidationIssue[]> {
  const lookup = memoized(nodeTemplateOf);
  const issues: ValidationIssue[] = [];
  for (const definition of definitions) {
    const value = properties[definition.name];
    const at = [...loc, definition.name];
    if (value === undefined || value === null) {
      if (definition.required)
        issues.push({ loc: at, msg: `Property '${definition.name}' is required`, type: 'missing' });
      continue;
    }
    issues.push(...(await checkPropertyValue(definition, value, at, lookup)));
  }
  return issues;
}

/** The properties with each absent defined property set to a copy of its default_value (when it has one). */
export function withDefaults(
  definitions: PropertyDefinition[],
  properties: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...properties };
  for (const definition of definitions) {
    if (result[definition.name] !== undefined) continue;
    if (definition.default_value === undefined || definition.default_value === null) continue;
    result[definition.name] = structuredClone(definition.default_value);
  }
  return result;
}

/**
 * Checks one non-null value against one definition (type, enum, pattern, references); `required` is
 * the caller's business. Also used for a definition's own default_value.
 */
export async function checkPropertyValue(
  definition: PropertyDefinition,
  value: unknown,
  at: Loc,
  nodeTemplateOf: NodeTemplateLookup,
): Promise<ValidationIssue[]> {
  const name = definition.name;
  const issue = (msg: string, type: string, where: Loc = at): ValidationIssue => ({
    loc: where,
    msg: `Property '${name}' ${msg}`,
    type,
  });

  switch (definition.property_type) {
    case 'node_reference':
      if (!isNodeId(value)) return [issue('must be a node id (a non-empty string)', 'type')];
      return checkReference(definition, value, at, nodeTemplateOf);
    case 'node_reference_list': {
      if (!Array.isArray(value)) return [issue('must be a list of node ids', 'type')];
      const issues: ValidationIssue[] = [];
      for (const [index, item] of value.entries()) {
        if (!isNodeId(item))
          issues.push(issue(`item ${index} must be a node id (a non-empty string)`, 'type', [...at, index]));
        else issues.push(...(await checkReference(definition, item, [...at, index], nodeTemplateOf)));
      }
      return issues;
    }
    default: {
      const problem = typeProblem(definition, value);
      if (problem) return [issue(problem.msg, problem.type)];
      if (stringLikeTypes.has(definition.property_type) && definition.validation_pattern && typeof value === 'string') {
        const pattern = compilePattern(definition.validation_pattern);
        if (!pattern) return [issue(`has an invalid validation_pattern '${definition.validation_pattern}'`, 'pattern')];
        if (!pattern.test(value))
          return [issue(`does not match the pattern '${definition.validation_pattern}'`, 'pattern')];
      }
      return [];
    }
  }
}

/** What is wrong with a value of a scalar type, or null when it is fine. */
function typeProblem(definition: PropertyDefinition, value: unknown): { msg: string; type: string } | null {
  switch (definition.property_type) {
    case 'string':
    case 'text':
      return typeof value === 'string' ? null : { msg: 'must be a string', type: 'type' };
    case 'integer':
      return Number.isSafeInteger(value) ? null : { msg: 'must be an integer', type: 'type' };
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? null : { msg: 'must be a number', type: 'type' };
    case 'boolean':
      return typeof value === 'boolean' ? null : { msg: 'must be true or false', type: 'type' };
    case 'date':
      if (typeof value !== 'string') return { msg: 'must be a date string (YYYY-MM-DD)', type: 'type' };
      return isIsoDate(value) ? null : { msg: 'must be an existing ISO 8601 date (YYYY-MM-DD)', type: 'format' };
    case 'datetime':
      if (typeof value !== 'string') return { msg: 'must be a date-time string', type: 'type' };
      return isIsoDateTime(value)
        ? null
        : { msg: 'must be an ISO 8601 date-time with a time zone (e.g. 2024-05-01T12:30:00Z)', type: 'format' };
    case 'url':
      if (typeof value !== 'string') return { msg: 'must be a URL string', type: 'type' };
      return isHttpUrl(value) ? null : { msg: 'must be an http or https URL', type: 'format' };
    case 'email':
      if (typeof value !== 'string') return { msg: 'must be an email address string', type: 'type' };
      return isEmail(value) ? null : { msg: 'must be an email address', type: 'format' };
    case 'enum': {
      const allowed = definition.enum_values ?? [];
      if (typeof value === 'string' && allowed.includes(value)) return null;
      return {
        msg: `must be one of: ${allowed.map((entry) => `'${entry}'`).join(', ') || '(no values are defined)'}`,
        type: 'enum',
      };
    }
    case 'json':
      return isJsonValue(value) ? null : { msg: 'must be a JSON value', type: 'type' };
    default:
      return { msg: `has an unknown property type '${String(definition.property_type)}'`, type: 'property_type' };
  }
}

async function checkReference(
  definition: PropertyDefinition,
  nodeId: string,
  at: Loc,
  nodeTemplateOf: NodeTemplateLookup,
): Promise<ValidationIssue[]> {
  const templateId = await nodeTemplateOf(nodeId);
  if (templateId === null) {
    return [
      {
        loc: at,
        msg: `Property '${definition.name}' references node '${nodeId}', which does not exist`,
        type: 'node_reference',
      },
    ];
  }
  const allowed = definition.allowed_node_types;
  if (allowed && allowed.length > 0 && !allowed.includes(templateId)) {
    return [
      {
        loc: at,
        msg: `Property '${definition.name}' references node '${nodeId}' of template '${templateId}'; allowed: ${allowed.join(', ')}`,
        type: 'node_type',
      },
    ];
  }
  return [];
}

function isNodeId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function memoized(lookup: NodeTemplateLookup): NodeTemplateLookup {
  const cache = new Map<string, Promise<string | null>>();
  return (nodeId) => {
    let pending = cache.get(nodeId);
    if (!pending) {
      pending = lookup(nodeId);
      cache.set(nodeId, pending);
    }
    return pending;
  };
}

const patternCache = new Map<string, RegExp | null>();

/** The compiled validation pattern, or null when it is not a valid JavaScript regular expression. */
export function compilePattern(source: string): RegExp | null {
  if (patternCache.has(source)) return patternCache.get(source)!;
  let compiled: RegExp | null;
  try {
    compiled = new RegExp(source);
  } catch {
    compiled = null;
  }
  if (patternCache.size > 1000) patternCache.clear();
  patternCache.set(source, compiled);
  return compiled;
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2})(?::?(\d{2}))?)$/;

/** `YYYY-MM-DD` naming a day that exists (proleptic Gregorian calendar). */
export function isIsoDate(value: string): boolean {
  const match = datePattern.exec(value);
  return match !== null && dayExists(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** An ISO 8601 date-time with a zone (`Z` or an offset), seconds and fractions optional. */
export function isIsoDateTime(value: string): boolean {
  const match = dateTimePattern.exec(value);
  if (!match) return false;
  const [, year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match;
  if (!dayExists(Number(year), Number(month), Number(day))) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return false;
  return Number(offsetHours ?? 0) <= 23 && Number(offsetMinutes ?? 0) <= 59;
}

function dayExists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    // WHATWG URLs of these special schemes always have a host.
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const emailPattern =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** A sane address: local part of the usual characters without leading/trailing/double dots, a dotted domain. */
export function isEmail(value: string): boolean {
  if (value.length > 254 || !emailPattern.test(value)) return false;
  const local = value.slice(0, value.lastIndexOf('@'));
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

/** null, booleans, strings, finite numbers, and arrays and plain objects of those (no cycles). */
export function isJsonValue(value: unknown, seen: Set<object> = new Set()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (seen.has(value)) return false;
  seen.add(value);
  let ok: boolean;
  if (Array.isArray(value)) ok = value.every((item) => isJsonValue(item, seen));
  else {
    const prototype = Object.getPrototypeOf(value);
    ok =
      (prototype === Object.prototype || prototype === null) &&
      Object.values(value).every((item) => isJsonValue(item, seen));
  }
  seen.delete(value);
  return ok;
}
