import { describe, expect, it } from 'vitest';
import { qualityLabelOf as qualityLabel } from '@rhizome/contracts/quality-bands';
import { qualityBandsText, qualityColorOf, shownGrade } from '../../packages/web/src/lib/quality.ts';

describe('quality bands', () => {
  it('are the API’s five: 48.35 is Fair for the API and for the interface', () => {
    expect([100, 85, 84.99, 70, 69.99, 50, 49.99, 48.35, 30, 29.99, 0].map(qualityLabel)).toEqual([
      'Outstanding',
      'Outstanding',
      'Excellent',
      'Excellent',
      'Good',
      'Good',
      'Fair',
      'Fair',
      'Fair',
      'Low',
      'Low',
    ]);
    expect(qualityColorOf(qualityLabel(48.35))).toBe('yellow');
  });

  it('explains the bands with the limits the API grades by', () => {
    expect(qualityBandsText).toBe(
      'Outstanding: 85 or more · Excellent: 70 to 84 · Good: 50 to 69 · Fair: 30 to 49 · Low: below 30',
    );
  });

  it('writes a grade so that the number never reads as the next band up', () => {
    for (const grade of [49.6, 69.99, 84.5, 29.5])
      expect(qualityLabel(shownGrade(grade)), `${grade} shown as ${shownGrade(grade)}`).toBe(qualityLabel(grade));
  });
});
