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
});
