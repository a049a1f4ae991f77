import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/everyday/${name}`, import.meta.url), 'utf8');

interface Proposal {
  detected_domain: string;
  low_confidence: boolean;
  confidence: number;
  reason?: string;
}

// Files a new user drops on a fresh install, extracted offline with the builtin model and no domain chosen.
describe('everyday files through the builtin extractor', () => {
  let server: TestServer;
  let cookie: string;
  const upload = async (name: string, fields: Record<string, string> = {}) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content: fixture(name) }], {
      auto_confirm: 'true',
      ...fields,
    });
    expect(accepted.status, accepted.text).toBe(202);
    const id = (accepted.body as SourceResponseBody).id;
    const source = await waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    return source;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it('does not take a history of Python closed by its licence for a legal text, and keeps its entities', async () => {
    const source = await upload('python-history.txt');
    const proposal = source.detection_proposal as unknown as Proposal;
    expect(proposal.detected_domain).toBe('generic');
    expect(source.extraction_domain).toBe('generic');
    expect(proposal.low_confidence).toBe(true);
    expect(proposal.reason).toMatch(/legal cues cover only \d+% of the text.*generic domain is used/);
    expect(source.extraction_entities_count).toBeGreaterThan(0);
  }, 90_000);

  it('keeps the entities of a codenames CSV no relationship links, and says why when orphans were to go', async () => {
    // The builtin extractor keeps unlinked entities anyway; a source that asks to drop them is kept from emptying.
    const kept = await upload('release-codenames.csv');
    expect(kept.extraction_entities_count).toBeGreaterThan(0);
    const source = await upload('release-codenames.csv', { protect_orphans: 'false', skip_duplicates: 'false' });
    expect(source.extraction_entities_count).toBeGreaterThan(0);
    expect(source.loader_warnings.join('\n')).toMatch(/kept unlinked instead of being dropped as orphans/);
  }, 120_000);

  it('keeps a legal source whose relationships fit none of its types, with the generic rules, and says why', async () => {
    const accepted = await uploadSources(
      server,
      cookie,
      '/sources',
      [{ name: 'python-history-legal.txt', content: fixture('python-history.txt') }],
      { auto_confirm: 'true', domain: 'legal', protect_orphans: 'false' },
    );
    expect(accepted.status, accepted.text).toBe(202);
    const id = (accepted.body as SourceResponseBody).id;
    const source = await waitForSource(server, cookie, id, ['committed', 'error'], 60_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    expect(source.extraction_domain).toBe('legal');
    expect(source.extraction_entities_count).toBeGreaterThan(0);
    expect(source.loader_warnings.join('\n')).toMatch(/of the legal domain's types/);
  }, 90_000);
});
