import type { IncomingMessage } from 'node:http';
import { ApiError } from '@rhizome/contracts/errors';

/** Far deeper than any request body of the API; low enough that cloning and validating never exhaust the stack. */
const maxJsonDepth = 128;

type JsonTextProblem = 'too_deep' | 'lone_surrogate';

const code = (char: string) => char.charCodeAt(0);
const [openBracket, openBrace, closeBracket, closeBrace, quote, backslash, lowerU] = [
  '[',
  '{',
  ']',
  '}',
  '"',
  '\\',
  'u',
].map(code);

/**
 * One pass over JSON text as UTF-8 (valid JSON or not) for what JSON.parse accepts but nothing after it should get:
 * nesting deeper than `maxDepth`, and a `\uD800`-style escape of half a surrogate pair, which is no Unicode text
 * and breaks every later encoding step (URLs, files, UTF-8). UTF-8 bytes themselves cannot carry a lone surrogate.
 */
function jsonTextProblem(text: Uint8Array, maxDepth: number): JsonTextProblem | null {
  let depth = 0;
  let inString = false;
  let pendingHigh = false;
  for (let index = 0; index < text.length; index += 1) {
    const current = text[index];
    if (inString) {
      if (current === backslash) {
        const unit = text[index + 1] === lowerU ? hexUnit(text, index + 2) : -1;
        if (pendingHigh !== (unit >= 0xdc00 && unit <= 0xdfff)) return 'lone_surrogate';
        pendingHigh = unit >= 0xd800 && unit <= 0xdbff;
        index += unit >= 0 ? 5 : 1;
      } else if (pendingHigh) return 'lone_surrogate';
      else if (current === quote) inString = false;
    } else if (current === quote) inString = true;
    else if (current === openBracket || current === openBrace) {
      depth += 1;
      if (depth > maxDepth) return 'too_deep';
    } else if (current === closeBracket || current === closeBrace) depth -= 1;
  }
  return null;
}

/** The UTF-16 unit of the four hex digits at `start`, or -1. */
function hexUnit(text: Uint8Array, start: number): number {
  const digits = String.fromCharCode(...text.subarray(start, start + 4));
  return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : -1;
}

const problems: Record<JsonTextProblem, { msg: string; message: string }> = {
  too_deep: {
    msg: `JSON nested more than ${maxJsonDepth} levels deep`,
    message: `Request body is nested more than ${maxJsonDepth} levels deep`,
  },
  lone_surrogate: {
    msg: 'a \\u escape is half of a surrogate pair, which is no Unicode character',
    message: 'Request body is not well-formed Unicode',
  },
};

/** The JSON body parser's `verify` hook: refuses, with 422 before parsing, a body that `jsonTextProblem` finds fault with. */
export function refuseUnsafeJson(_req: IncomingMessage, _res: unknown, body: Buffer, encoding: string | null): void {
  // UTF-8 bytes are scanned as they are (no multi-byte sequence holds an ASCII byte); UTF-16 is re-encoded first.
  const text = !encoding || /^utf-?8$/i.test(encoding) ? body : Buffer.from(new TextDecoder(encoding).decode(body));
  const problem = jsonTextProblem(text, maxJsonDepth);
  if (!problem) return;
  throw ApiError.validation(
    [
      {
        loc: ['body'],
        msg: problems[problem].msg,
        type: problem === 'too_deep' ? 'json_too_deep' : 'json_lone_surrogate',
      },
    ],
    problems[problem].message,
  );
}
