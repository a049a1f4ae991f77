import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectDomain, detectionSamples, fallbackDomain } from '../../src/sources/domains/detect.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { defaultConfidence } from '../../src/sources/domains/schema.ts';

interface Labelled {
  label: string;
  filename: string;
  text: string;
}

const labelled = (
  JSON.parse(readFileSync(new URL('../fixtures/domains/labelled.json', import.meta.url), 'utf8')) as {
    documents: Labelled[];
  }
).documents;
const domains = builtinDomains();
const proposals = labelled.map((document) => ({
  document,
  proposal: detectDomain({ samples: detectionSamples(document.text), filename: document.filename }, domains),
}));

/** Accuracy on the labelled set if the threshold were `threshold`: the best specific domain wins when it reaches it, else the fallback. */
function accuracyAt(threshold: number): number {
  const right = proposals.filter(({ document, proposal }) => {
    const best = proposal.ranking.find((entry) => entry.domain !== fallbackDomain)!;
    return (best.score >= threshold ? best.domain : fallbackDomain) === document.label;
  });
  return right.length / proposals.length;
}

describe('domain detection calibrated on labelled documents', () => {
  const threshold = defaultConfidence.min_threshold;

  it('has a labelled set of at least 20 short documents covering every built-in domain', () => {
    expect(labelled.length).toBeGreaterThanOrEqual(20);
    expect(new Set(labelled.map((document) => document.label))).toEqual(new Set(domains.map((domain) => domain.name)));
  });

  it('uses the calibrated threshold for every built-in domain, the fallback included', () => {
    expect(domains.map((domain) => [domain.name, domain.detection.confidence.min_threshold])).toEqual(
      domains.map((domain) => [domain.name, threshold]),
    );
  });

  it('sits the threshold inside the best plateau: no threshold from 0.1 to 1 does better on the set', () => {
    const candidates = Array.from({ length: 37 }, (_, index) => 0.1 + index * 0.025);
    const best = Math.max(...candidates.map(accuracyAt));
    expect(accuracyAt(threshold)).toBe(best);
    // Calibrated in the middle of the plateau, not at its edge: a little either way scores the same.
    expect(accuracyAt(threshold - 0.05)).toBe(best);
    expect(accuracyAt(threshold + 0.05)).toBe(best);
  });

  it('labels at least 90% of the set right', () => {
    const wrong = proposals
      .filter(({ document, proposal }) => proposal.detected_domain !== document.label)
      .map(
        ({ document, proposal }) =>
          `${document.filename}: ${document.label} detected as ${proposal.detected_domain} (${JSON.stringify(proposal.ranking.slice(0, 3))})`,
      );
    expect(wrong.length / labelled.length, wrong.join('\n')).toBeLessThanOrEqual(0.1);
  });

  it('detects the first domain of its ranking, every time', () => {
    for (const { document, proposal } of proposals)
      expect(proposal.ranking[0].domain, document.filename).toBe(proposal.detected_domain);
  });

  it('picks a short biography whose best score used to fall under the old threshold (0.35), not the fallback', () => {
    const biography = proposals.find(({ document }) => document.filename === 'yaya-soumahoro.txt')!.proposal;
    expect(biography).toMatchObject({
      detected_domain: 'biographical',
      low_confidence: false,
      ranking: [{ domain: 'biographical', score: 0.35 }, ...biography.ranking.slice(1)],
    });
  });
});
