/** JSON and JSON Lines, flattened to "path: value" text (`items[0].name: Ada`) so values are searchable. */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { UnreadableFileError, type LoadedDocument, type LoaderInput } from './port.ts';
import { completeLines, readTextFile } from './text-file.ts';
import { CappedWarnings } from './warnings.ts';

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : String(value);
}

/** "path: value" pairs in document order; iterative, so deep nesting cannot overflow the stack. */
export function* flattenJson(root: unknown): Generator<string> {
  const stack: [string, unknown][] = [['', root]];
  while (stack.length > 0) {
    const [path, value] = stack.pop()!;
    const children: [string, unknown][] = Array.isArray(value)
      ? value.map((item, index): [string, unknown] => [`${path}[${index}]`, item])
      : value !== null && typeof value === 'object'
        ? Object.entries(value).map(([key, item]): [string, unknown] => [path ? `${path}.${key}` : key, item])
        : [];
    if (children.length > 0) {
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      continue;
    }
    const text = Array.isArray(value) ? '[]' : value !== null && typeof value === 'object' ? '{}' : scalarText(value);
    yield path ? `${path}: ${text}` : text;
  }
}

/** Joins generated lines until the character budget is spent. */
function takeWithin(lines: Iterable<string>, budget: number, separator: string): string {
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    kept.push(line);
    length += line.length + separator.length;
    if (length > budget) break;
  }
  return kept.join(separator);
}

interface JsonLines {
  text: string;
  records: number;
  problems: CappedWarnings;
}

function readJsonLines(source: string, budget: number): JsonLines {
  const problems = new CappedWarnings();
  const records: string[] = [];
  let length = 0;
  const lines = source.split('\n');
  for (let index = 0; index < lines.length && length <= budget; index++) {
    const line = lines[index].trim();
    if (!line) continue;
    try {
      const record = takeWithin(flattenJson(JSON.parse(line)), budget - length, '; ');
      records.push(record);
      length += record.length + 1;
    } catch (error) {
      problems.add(`line ${index + 1}: not valid JSON (${(error as Error).message})`);
    }
  }
  return { text: records.join('\n'), records: records.length, problems };
}

function structuredDocument(
  input: LoaderInput,
  text: string,
  format: 'json' | 'jsonl',
  warnings: string[],
  metadata: Record<string, unknown>,
): LoadedDocument {
  const assembler = new TextAssembler(input.limits.maxTextChars);
  assembler.add(text);
  const result = assembler.result();
  return { ...result, warnings: [...warnings, ...result.warnings], format, kind: 'structured', title: null, metadata };
}

export const jsonLoader = defineLoader('json', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input);
  const budget = input.limits.maxTextChars;
  if (file.truncated) {
    // The document cannot be parsed without its end; its raw text is still searchable.
    return structuredDocument(
      input,
      file.text,
      'json',
      ['the JSON file is larger than the text limit; loaded as raw text'],
      { encoding: file.encoding },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch (error) {
    const asLines = readJsonLines(file.text, budget);
    if (asLines.records > 1 && asLines.problems.count < asLines.records) {
      const warnings = ['the file is not one JSON document; read as JSON Lines', ...asLines.problems.list()];
      return structuredDocument(input, asLines.text, 'json', warnings, {
        encoding: file.encoding,
        records: asLines.records,
      });
    }
    throw new UnreadableFileError(`The file is not valid JSON (${(error as Error).message})`);
  }
  return structuredDocument(input, takeWithin(flattenJson(value), budget, '\n'), 'json', [], {
    encoding: file.encoding,
  });
});

export const jsonlLoader = defineLoader('jsonl', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input);
  const { text, records, problems } = readJsonLines(completeLines(file), input.limits.maxTextChars);
  if (records === 0 && problems.count > 0)
    throw new UnreadableFileError('No line of the JSON Lines file is valid JSON');
  return structuredDocument(input, text, 'jsonl', problems.list(), { encoding: file.encoding, records });
});
