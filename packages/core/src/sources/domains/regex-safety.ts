import { createContext, Script } from 'node:vm';

/**
 * Regexes written by operators (custom domains) run over untrusted document text. Three bounds: the
 * ones that can backtrack exponentially are refused up front, every test runs on a bounded slice of
 * input (`boundedMatchCount`), and the work runs under a time limit (`withinTimeLimit`), because
 * patterns such as `\s*\s*\s*x` pass any simple static check yet take seconds on 2,000 spaces.
 */

/** Most characters one pattern is tested against at a time. */
export const patternInputCap = 2_000;

// A context whose only job is to call `work`: `timeout` lets V8 stop it, even inside a regex match.
const sandbox = createContext({ work: null, result: undefined }) as { work: (() => unknown) | null; result: unknown };
const callWork = new Script('result = work()');

/** What `work` returns, or null when it runs longer than `ms` and is stopped. */
export function withinTimeLimit<T>(work: () => T, ms: number): T | null {
  sandbox.work = work;
  try {
    callWork.runInContext(sandbox, { timeout: ms });
    return sandbox.result as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return null;
    throw error;
  } finally {
    sandbox.work = null;
    sandbox.result = undefined;
  }
}

/** Why the pattern is refused, or null when it may be used. Patterns compile with flags `gm`. */
export function unsafeRegexReason(source: string): string | null {
  try {
    new RegExp(source, 'gm');
  } catch (error) {
    return `does not compile: ${(error as Error).message}`;
  }
  return hasNestedQuantifier(source)
    ? 'a repeated group contains a quantifier or an alternation, which can backtrack catastrophically (e.g. (a+)+); rewrite it with a character class'
    : null;
}

/** Matches of `pattern` (flags must include `g`) in the first `patternInputCap` characters of `text`, counting at most `limit`. */
export function boundedMatchCount(pattern: RegExp, text: string, limit: number): number {
  const input = text.length > patternInputCap ? text.slice(0, patternInputCap) : text;
  pattern.lastIndex = 0;
  let count = 0;
  while (count < limit) {
    const match = pattern.exec(input);
    if (!match) break;
    count += 1;
    if (match[0].length === 0) pattern.lastIndex += 1;
  }
  return count;
}

interface Quantifier {
  length: number;
  repeats: boolean;
  variable: boolean;
}

/**
 * Star height above one: a group quantified by something that repeats it (`*`, `+`, `{2,}`, `{1,5}` …)
 * while its body can match in more than one way (a variable quantifier or an alternation inside).
 */
function hasNestedQuantifier(source: string): boolean {
  const groups: boolean[] = [false]; // per open group: does its body match variably?
  let closedGroupVariable = false; // the atom just read was a group whose body matches variably
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    const quantifier = readQuantifier(source, i);
    if (quantifier) {
      if (quantifier.repeats && closedGroupVariable) return true;
      if (quantifier.variable) groups[groups.length - 1] = true;
      i += quantifier.length;
      closedGroupVariable = false;
      continue;
    }
    closedGroupVariable = false;
    if (char === '\\') i += 2;
    else if (char === '[') i = endOfClass(source, i);
    else if (char === '(') {
      groups.push(false);
      i = endOfGroupPrefix(source, i + 1);
    } else if (char === ')') {
      const variable = groups.length > 1 ? groups.pop()! : false;
      if (variable) groups[groups.length - 1] = true;
      closedGroupVariable = variable;
      i += 1;
    } else {
      if (char === '|') groups[groups.length - 1] = true;
      i += 1;
    }
  }
  return false;
}

function readQuantifier(source: string, at: number): Quantifier | null {
  const char = source[at];
  let quantifier: Quantifier | null = null;
  if (char === '*' || char === '+') quantifier = { length: 1, repeats: true, variable: true };
  else if (char === '?') quantifier = { length: 1, repeats: false, variable: true };
  else if (char === '{') {
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at, at + 24));
    if (!braces) return null;
    const min = Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3]);
    quantifier = { length: braces[0].length, repeats: max > 1, variable: max !== min };
  }
  if (quantifier && source[at + quantifier.length] === '?') quantifier.length += 1; // lazy
  return quantifier;
}

function endOfClass(source: string, at: number): number {
  let i = at + 1;
  if (source[i] === '^') i += 1;
  if (source[i] === ']') i += 1;
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Skips `?:`, `?=`, `?!`, `?<=`, `?<!` and `?<name>` after an opening parenthesis. */
function endOfGroupPrefix(source: string, at: number): number {
  if (source[at] !== '?') return at;
  const next = source[at + 1];
  if (next === ':' || next === '=' || next === '!') return at + 2;
  if (next === '<') {
    if (source[at + 2] === '=' || source[at + 2] === '!') return at + 3;
    const close = source.indexOf('>', at);
    return close === -1 ? at + 2 : close + 1;
  }
  return at + 1;
}
