import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectDomain, detectionSamples } from '../../src/sources/domains/detect.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';

const history = readFileSync(
  new URL('../../../../tests/fixtures/everyday/python-history.txt', import.meta.url),
  'utf8',
);
const detect = (text: string, filename = 'python-history.txt') =>
  detectDomain({ samples: detectionSamples(text), filename, docType: 'text' }, builtinDomains());

describe('a domain is detected only with cues spread over the text', () => {
  it('takes a history of Python closed by its licence for generic, not legal, and says why', () => {
    const proposal = detect(history);
    const legal = proposal.ranking.find((entry) => entry.domain === 'legal')!;
    // The licence block alone scores far above the threshold: the spread is what rules legal out.
    expect(legal.score).toBeGreaterThan(1);
    expect(proposal).toMatchObject({ detected_domain: 'generic', low_confidence: true, confidence: 0.25 });
    expect(proposal.reason).toMatch(/^The legal cues cover only \d+% of the text.*: the generic domain is used\.$/);
  });

  it('still detects the licence on its own as legal, its confidence scaled by the share its cues cover', () => {
    const licence = history.slice(history.indexOf('B. TERMS AND CONDITIONS'));
    const proposal = detect(licence, 'LICENSE.txt');
    expect(proposal).toMatchObject({ detected_domain: 'legal', low_confidence: false });
    expect(proposal.reason).toBeUndefined();
    expect(proposal.confidence).toBeGreaterThan(0.8);
    expect(proposal.confidence).toBeLessThanOrEqual(1);
  });

  it('still detects the history part on its own as generic, naming the domain that came closest', () => {
    const proposal = detect(history.slice(0, history.indexOf('B. TERMS AND CONDITIONS')));
    expect(proposal.detected_domain).toBe('generic');
    expect(proposal.reason).toMatch(/^No domain has enough evidence in the text \(\w+ comes closest/);
  });
});
