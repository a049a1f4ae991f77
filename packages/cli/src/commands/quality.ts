import fs from 'node:fs';
import { qualityEndpoints, type SourceQualityScoreBody } from '@rhizome/contracts/api/quality';
import { Option, type Command } from 'commander';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { fields } from './graph-shared.ts';

async function score(remote: Remote, id: string, options: { details?: boolean }): Promise<void> {
  const params = { source_id: id };
  const details = options.details ? await remote.client.call(qualityEndpoints.details, { params, query: {} }) : null;
  const result = details ?? (await remote.client.call(qualityEndpoints.source, { params, query: {} }));
  if (remote.json) return printJson(remote.io, result);
  fields(remote, [
    ['source', `${result.source_id}${result.source_title ? ` (${result.source_title})` : ''}`],
    ['quality', `${result.quality_label} (grade ${result.quality_grade.toFixed(1)})`],
    ['score', result.total_score.toFixed(2)],
    ['entities', `${result.entity_count} (${result.low_quality_entity_count} low quality)`],
    ['relationships', `${result.relationship_count} (${result.low_quality_relationship_count} low quality)`],
    ['domain', result.domain],
  ]);
  for (const entity of details?.entity_scores ?? [])
    remote.io.out(`  entity ${entity.entity_name} (${entity.entity_type})`);
  for (const link of details?.relationship_scores ?? [])
    remote.io.out(`  relationship ${link.source_entity} -${link.relationship_type}-> ${link.target_entity}`);
}

const columns: (keyof SourceQualityScoreBody)[] = [
  'source_id',
  'source_title',
  'domain',
  'quality_label',
  'quality_grade',
  'total_score',
  'entity_count',
  'relationship_count',
];

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Every scored source, as a table, JSON or CSV, printed or written to a file. */
async function report(remote: Remote, options: { format: 'table' | 'json' | 'csv'; output?: string }) {
  const sources: SourceQualityScoreBody[] = [];
  for (let page = 1; ; page++) {
    const result = await remote.client.call(qualityEndpoints.analyzePage, { query: { page, page_size: 100 } });
    sources.push(...result.sources);
    if (!result.pagination.has_next) break;
  }
  const format = remote.json ? 'json' : options.format;
  const lines: string[] = [];
  const collect = { ...remote.io, out: (line: string) => lines.push(line) };
  if (format === 'json') printJson(collect, sources);
  else if (format === 'csv')
    for (const row of [columns, ...sources.map((source) => columns.map((column) => source[column]))])
      lines.push(row.map(csvCell).join(','));
  else
    table(
      collect,
      ['SOURCE', 'QUALITY', 'GRADE', 'SCORE', 'ENTITIES', 'TITLE'],
      sources.map((source) => [
        source.source_id,
        source.quality_label,
        source.quality_grade.toFixed(1),
        source.total_score.toFixed(2),
        String(source.entity_count),
        source.source_title ?? '',
      ]),
    );
  if (!options.output) return lines.forEach((line) => remote.io.out(line));
  fs.writeFileSync(options.output, `${lines.join('\n')}\n`);
  remote.io.err(`${sources.length} source(s) written to ${options.output}`);
}

/** `quality score|report`, under `parent` (the top level, and `sources`). */
export function registerQualityOn(parent: Command, runner: CommandRunner): void {
  const quality = parent.command('quality').description('Quality scores of the extracted sources');
  quality
    .command('score')
    .description('The quality score of a source')
    .argument('<source-id>')
    .option('-d, --details', 'with the score of every entity and relationship')
    .action(runner.remote((remote, id: string, options: { details?: boolean }) => score(remote, id, options)));
  quality
    .command('report')
    .description('The scores of every scored source')
    .addOption(
      new Option('-f, --format <format>', 'how to print it').choices(['table', 'json', 'csv']).default('table'),
    )
    .option('-o, --output <file>', 'write it to this file')
    .action(
      runner.remote((remote, options: { format: 'table' | 'json' | 'csv'; output?: string }) =>
        report(remote, options),
      ),
    );
}
