import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../support/cli.ts';

/** `rhizome quality score|report` (also under `source quality`) on a source extracted by a real server. */
describe('rhizome quality', () => {
  let cli: CliServer;
  let sourceId: string;

  beforeAll(async () => {
    cli = await startCliServer();
    const file = path.join(cli.work, 'lighthouse.txt');
    fs.writeFileSync(
      file,
      'The Kestrel Point lighthouse was built in 1871 by Ada Lovell. Ada Lovell was born in Cornwall. ' +
        'The lighthouse guards the harbour of Port Isaac.',
    );
    const added = await cli.rhizome(['add', file, '--domain', 'generic', '--wait', '--json']);
    expect(added.code, added.output).toBe(0);
    sourceId = (JSON.parse(added.output) as { source_id: string }[])[0].source_id;
  }, 200_000);
  afterAll(() => cli.server.stop());

  it('scores a source, with its entities on --details', async () => {
    const scored = await cli.rhizome(['quality', 'score', sourceId, '--json']);
    expect(scored.code, scored.output).toBe(0);
    const body = JSON.parse(scored.output) as { source_id: string; entity_count: number };
    expect(body.source_id).toBe(sourceId);
    expect(body.entity_count).toBeGreaterThan(0);
    const detailed = await cli.rhizome(['source', 'quality', 'score', sourceId, '--details']);
    expect(detailed.code, detailed.output).toBe(0);
    expect(detailed.output).toMatch(/quality\s+\w+ \(grade/);
    expect(detailed.output).toMatch(/ {2}entity .+/);
    expect((await cli.rhizome(['quality', 'score', 'no-such-source'])).code).toBe(5);
  }, 120_000);

  it('reports every scored source as CSV to a file', async () => {
    const file = path.join(cli.work, 'quality.csv');
    const written = await cli.rhizome(['source', 'quality', 'report', '--format', 'csv', '-o', file]);
    expect(written.code, written.output).toBe(0);
    const [header, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(header).toBe(
      'source_id,source_title,domain,quality_label,quality_grade,total_score,entity_count,relationship_count',
    );
    expect(rows.map((row) => row.split(',')[0])).toEqual([sourceId]);
    const table = await cli.rhizome(['quality', 'report']);
    expect(table.output).toContain(sourceId);
  }, 120_000);

  it('analyzes the scored sources, recalculates scores and reports per domain', async () => {
    const analyzed = await cli.rhizome(['quality', 'analyze', '-s', 'entities', '-n', '5', '--json']);
    expect(analyzed.code, analyzed.output).toBe(0);
    const body = JSON.parse(analyzed.output) as { total_sources: number; sources: { source_id: string }[] };
    expect(body.total_sources).toBe(1);
    expect(body.sources.map((source) => source.source_id)).toEqual([sourceId]);
    const none = await cli.rhizome(['quality', 'analyze', '--min-entities', '1000']);
    expect(none.output).toContain('0 source(s)');
    expect((await cli.rhizome(['quality', 'analyze', '-s', 'colour'])).code).toBe(2);

    const all = await cli.rhizome(['quality', 'recalculate', '--json']);
    expect(all.code, all.output).toBe(0);
    expect(JSON.parse(all.output)).toEqual({ recalculated_count: 1, errors: [] });
    const one = await cli.rhizome(['source', 'quality', 'recalculate', '-s', sourceId]);
    expect(one.output).toContain('Recalculated 1 source(s)');
    const outdated = await cli.rhizome(['quality', 'recalculate', '--outdated-only']);
    expect(outdated.output).toContain('Recalculated 0 source(s)');
    expect((await cli.rhizome(['quality', 'recalculate', '-s', 'no-such-source'])).code).toBe(5);

    const perDomain = await cli.rhizome(['quality', 'report', '--include-domains', '--json']);
    const report = JSON.parse(perDomain.output) as { sources: unknown[]; domains: { domain: string }[] };
    expect(report.sources).toHaveLength(1);
    expect(report.domains.map((domain) => domain.domain)).toEqual(['generic']);
    const otherDomain = await cli.rhizome(['quality', 'report', '-d', 'legal', '--json']);
    expect(JSON.parse(otherDomain.output)).toEqual([]);
  }, 120_000);
});
