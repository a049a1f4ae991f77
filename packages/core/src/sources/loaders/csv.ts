/** CSV and TSV: one line per row, "header: value; header: value", so each row is searchable on its own. */
import Papa from 'papaparse';
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import type { LoadedDocument, LoaderFormat, LoaderInput } from './port.ts';
import { completeLines, readTextFile } from './text-file.ts';
import { CappedWarnings } from './warnings.ts';

/** `row` is aligned with `headers`; empty cells are left out, extra cells get positional names. */
export function renderRow(headers: readonly string[], row: readonly string[]): string {
  const pairs: string[] = [];
  row.forEach((raw, index) => {
    const value = raw.replace(/\s+/g, ' ').trim();
    if (value) pairs.push(`${headers[index] || `column ${index + 1}`}: ${value}`);
  });
  return pairs.join('; ');
}

function loadDelimited(format: Extract<LoaderFormat, 'csv' | 'tsv'>) {
  return async (input: LoaderInput): Promise<LoadedDocument> => {
    const file = await readTextFile(input);
    const budget = input.limits.maxTextChars;
    const lines: string[] = [];
    let length = 0;
    let headers: string[] | null = null;
    let rows = 0;
    const problems = new CappedWarnings();
    let delimiter = '';
    Papa.parse<string[]>(completeLines(file), {
      delimiter: format === 'tsv' ? '\t' : '',
      delimitersToGuess: [',', ';', '\t', '|'],
      skipEmptyLines: 'greedy',
      step: (step, parser) => {
        for (const error of step.errors) {
          if (error.code !== 'UndetectableDelimiter') problems.add(`row ${rows + 1}: ${error.message}`);
        }
        if (!headers) {
          delimiter = step.meta.delimiter;
          headers = step.data.map((header) => header.replace(/\s+/g, ' ').trim());
          return;
        }
        rows++;
        const line = renderRow(headers, step.data);
        if (!line) return;
        lines.push(line);
        length += line.length + 1;
        if (length > budget) parser.abort();
      },
    });
    const assembler = new TextAssembler(budget);
    assembler.add(lines.join('\n'));
    const result = assembler.result();
    return {
      ...result,
      warnings: [...problems.list(), ...result.warnings],
      format,
      kind: 'structured',
      title: null,
      metadata: { encoding: file.encoding, delimiter, columns: headers ?? [], rows },
    };
  };
}

export const csvLoader = defineLoader('csv', loadDelimited('csv'));
export const tsvLoader = defineLoader('tsv', loadDelimited('tsv'));
