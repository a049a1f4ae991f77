import fs from 'node:fs';
import {
  qualityEndpoints,
  type AnalysisSortField,
  type DomainPerformanceBody,
  type SourceQualityScoreBody,
} from '@rhizome/contracts/api/quality';
import { Option, type Command } from 'commander';
import { positiveInteger, repeated } from '../options.ts';
import { printJson, table, type Io } from '../output.ts';
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

interface ReportOptions {
  format: 'table' | 'json' | 'csv';
  output?: string;
  domain?: string;
  includeDomains?: boolean;
}

function domainTable(io: Io, domains: DomainPerformanceBody[]): void {
  table(
    io,
    ['DOMAIN', 'SOURCES', 'AVG SCORE', 'ENTITIES', 'RELATIONSHIPS'],
    domains.map((domain) => [
      domain.domain ?? '(none)',
      String(domain.source_count),
      domain.avg_total_score.toFixed(2),
      String(domain.total_entities),
      String(domain.total_relationships),
    ]),
  );
}

/** Every scored source (of one domain), as a table, JSON or CSV, printed or written to a file. */
async function report(remote: Remote, options: ReportOptions) {
  const sources: SourceQualityScoreBody[] = [];
  for (let page = 1; ; page++) {
    const result = await remote.client.call(qualityEndpoints.analyzePage, {
      query: { page, page_size: 100, ...(options.domain ? { domain: options.domain } : {}) },
    });
    sources.push(...result.sources);
    if (!result.pagination.has_next) break;
  }
  const format = remote.json ? 'json' : options.format;
  const domains = options.includeDomains ? (await remote.client.call(qualityEndpoints.domains)).domains : null;
  const lines: string[] = [];
  const collect = { ...remote.io, out: (line: string) => lines.push(line) };
  if (format === 'json') printJson(collect, domains ? { sources, domains } : sources);
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
  if (domains && format === 'table') {
    lines.push('');
    domainTable(collect, domains);
  }
  if (!options.output) return lines.forEach((line) => remote.io.out(line));
  fs.writeFileSync(options.output, `${lines.join('\n')}\n`);
  remote.io.err(`${sources.length} source(s) written to ${options.output}`);
}

const sortFields: Record<string, AnalysisSortField> = {
  score: 'total_score',
  entities: 'entity_count',
  quality: 'avg_entity_quality',
};

interface AnalyzeOptions {
  domain?: string;
  minEntities: number;
  sort: keyof typeof sortFields;
  limit: number;
}

/** The best (or richest) scored sources with the averages over every one that matches. */
async function analyze(remote: Remote, options: AnalyzeOptions): Promise<void> {
  const result = await remote.client.call(qualityEndpoints.analyzePage, {
    query: {
      page: 1,
      page_size: options.limit,
      min_entities: options.minEntities,
      sort_by: sortFields[options.sort],
      sort_order: 'desc',
      ...(options.domain ? { domain: options.domain } : {}),
    },
  });
  if (remote.json) return printJson(remote.io, result);
  remote.io.out(
    `${result.total_sources} source(s): average score ${result.avg_score.toFixed(2)}, entity quality ` +
      `${result.avg_entity_quality.toFixed(2)}, relationship quality ${result.avg_relationship_quality.toFixed(2)}`,
  );
  if (result.sources.length === 0) return;
  table(
    remote.io,
    ['SOURCE', 'QUALITY', 'SCORE', 'ENTITIES', 'RELATIONSHIPS', 'TITLE'],
    result.sources.map((source) => [
      source.source_id,
      source.quality_label,
      source.total_score.toFixed(2),
      String(source.entity_count),
      String(source.relationship_count),
      source.source_title ?? '',
    ]),
  );
}

interface RecalculateOptions {
  domain?: string;
  outdatedOnly?: boolean;
  sourceId: string[];
}

/** Scores calculated anew and cached: every committed source (of a domain), the outdated ones, or those named. */
async function recalculate(remote: Remote, options: RecalculateOptions): Promise<void> {
  const named = options.outdatedOnly
    ? (await remote.client.call(qualityEndpoints.outdated)).sources.map((source) => source.id)
    : options.sourceId;
  let result: { recalculated_count: number; errors: { source_id: string; error: string }[] };
  if (named.length === 0 && !options.outdatedOnly)
    result = await remote.client.call(qualityEndpoints.recalculate, { body: { domain: options.domain ?? null } });
  else {
    result = { recalculated_count: 0, errors: [] };
    for (const source_id of named) {
      await remote.client.call(qualityEndpoints.source, {
        params: { source_id },
        query: { force_recalculate: true },
      });
      result.recalculated_count += 1;
    }
  }
  if (remote.json) return printJson(remote.io, result);
  remote.io.out(`Recalculated ${result.recalculated_count} source(s)`);
  for (const error of result.errors) remote.io.err(`  ${error.source_id}: ${error.error}`);
}

/** `quality score|report|analyze|recalculate`, under `parent` (the top level, and `sources`). */
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
    .option('-d, --domain <domain>', 'only the sources of this extraction domain')
    .option('--include-domains', 'add the average scores per domain')
    .action(runner.remote((remote, options: ReportOptions) => report(remote, options)));
  quality
    .command('analyze')
    .description('The best scored sources, with the averages over every source that matches')
    .option('--domain <domain>', 'only the sources of this extraction domain')
    .option('--min-entities <count>', 'only sources with at least this many entities', Number, 0)
    .addOption(new Option('-s, --sort <field>', 'what ranks them').choices(Object.keys(sortFields)).default('score'))
    .option('-n, --limit <count>', 'how many to list', positiveInteger, 20)
    .action(runner.remote((remote, options: AnalyzeOptions) => analyze(remote, options)));
  quality
    .command('recalculate')
    .description('Calculate the scores again and cache them (every committed source unless narrowed)')
    .option('--domain <domain>', 'only the sources of this extraction domain')
    .option('--outdated-only', 'only sources never scored or scored by an older formula')
    .option('-s, --source-id <id>', 'only this source (repeatable)', repeated, [])
    .action(runner.remote((remote, options: RecalculateOptions) => recalculate(remote, options)));
}
