import { describe, expect, it } from 'vitest';
import { qualityBandOf, qualityBandsText } from '../../packages/web/src/lib/quality.ts';

describe('quality bands', () => {
  it('calls 80 and more good, 60 to 79 fair and less than 60 in need of attention', () => {
    expect([100, 80, 79.6, 79, 60, 59.4, 58, 0].map((grade) => qualityBandOf(grade).label)).toEqual([
      'Good',
      'Good',
      'Good',
      'Fair',
      'Fair',
      'Needs attention',
      'Needs attention',
      'Needs attention',
    ]);
  });

  it('explains the bands with the same limits it applies', () => {
    expect(qualityBandsText).toBe('Good: 80 or more · Fair: 60 to 79 · Needs attention: below 60');
  });
});
