import type { QualityLabel } from './api/quality.ts';

/**
 * The one scale a quality grade (0–100) is read on: the API's `quality_label`, the README and the web
 * interface all take their limits from here. Highest first; a grade belongs to the first band it reaches.
 */
export const qualityBands: readonly { label: QualityLabel; from: number }[] = [
  { label: 'Outstanding', from: 85 },
  { label: 'Excellent', from: 70 },
  { label: 'Good', from: 50 },
  { label: 'Fair', from: 30 },
  { label: 'Low', from: 0 },
];

export function qualityLabelOf(grade: number): QualityLabel {
  return (qualityBands.find((band) => grade >= band.from) ?? qualityBands[qualityBands.length - 1]).label;
}
