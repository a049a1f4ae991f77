import { templateEndpoints, type TemplateResponse, type TemplateTypeName } from '@rhizome/contracts/api/templates';
import { Option } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';

export type Format = 'table' | 'json';
export const formatOption = () =>
  new Option('-f, --format <format>', 'how to print it').choices(['table', 'json']).default('table');

/** Prints `value` as JSON when asked for (`--json` or `--format json`), otherwise as `text` does. */
export function show<T>(remote: Remote, format: Format | undefined, value: T, text: (value: T) => void): void {
  if (remote.json || format === 'json') printJson(remote.io, value);
  else text(value);
}

/** `name  value` lines for what is set. */
export function fields(remote: Remote, entries: [string, unknown][]): void {
  const width = Math.max(...entries.map(([name]) => name.length)) + 2;
  for (const [name, value] of entries)
    if (value !== null && value !== undefined)
      remote.io.out(`${name.padEnd(width)}${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

async function templates(remote: Remote, type?: TemplateTypeName): Promise<TemplateResponse[]> {
  const all: TemplateResponse[] = [];
  for (let page = 1; ; page++) {
    const result = await remote.client.call(templateEndpoints.list, {
      query: { template_type: type, page, page_size: 100 },
    });
    all.push(...result.data);
    if (!result.pagination.has_next) return all;
  }
}

export const listTemplates = templates;

/** The template a command names by id or by name (case-insensitively). */
export async function templateNamed(remote: Remote, name: string, type?: TemplateTypeName): Promise<TemplateResponse> {
  const candidates = await templates(remote, type);
  const found =
    candidates.find((template) => template.id === name) ??
    candidates.find((template) => template.name.toLowerCase() === name.toLowerCase());
  if (!found) throw new CliFailure(`no ${type ?? ''}${type ? ' ' : ''}template '${name}'`, ExitCode.notFound);
  return found;
}
