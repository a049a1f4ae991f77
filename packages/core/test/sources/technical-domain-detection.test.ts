import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectDomain, detectionSamples } from '../../src/sources/domains/detect.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';

/**
 * Domain detection on the everyday documents of tests/fixtures/technical/: a domain only with
 * evidence spread over the text, else the generic domain with the reason said.
 */

const detect = (file: string) => {
  const text = readFileSync(new URL(`../../../../tests/fixtures/technical/${file}`, import.meta.url), 'utf8');
  return detectDomain({ samples: detectionSamples(text), filename: file }, builtinDomains());
};

describe('domain detection on technical documents', () => {
  it.each(['ssh.1.txt', 'tar.1.txt', 'deb-changelog.5.txt', 'redis-README.md'])('takes %s for technical', (file) => {
    const proposal = detect(file);
    expect(proposal.detected_domain).toBe('technical');
    expect(proposal.low_confidence).toBe(false);
  });

  it('takes the history of Python for generic, not legal, though its licence block scores high, and says why', () => {
    const proposal = detect('python-history.txt');
    expect(proposal.detected_domain).toBe('generic');
    expect(proposal.low_confidence).toBe(true);
    expect(proposal.reason).toMatch(/legal cues cover only \d+% of the text/);
  });

  it('falls back to generic for a changelog and a CSV of codenames and says what was missing', () => {
    const changelog = detect('tar-changelog.Debian.txt');
    expect(changelog).toMatchObject({ detected_domain: 'generic', low_confidence: true });
    expect(changelog.reason).toMatch(/technical cues cover only/);
    const csv = detect('release-codenames.csv');
    expect(csv).toMatchObject({ detected_domain: 'generic', low_confidence: true });
    expect(csv.reason).toMatch(/^No domain has enough evidence/);
  });
});
