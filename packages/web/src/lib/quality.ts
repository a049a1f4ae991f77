/** How a quality grade (0–100) reads, the same on the dashboard and on a source. */
export interface QualityBand {
  label: string;
  color: string;
}

const bands: (QualityBand & { from: number })[] = [
  { from: 80, label: 'Good', color: 'teal' },
  { from: 60, label: 'Fair', color: 'yellow' },
  { from: 0, label: 'Needs attention', color: 'orange' },
];

export function qualityBandOf(grade: number): QualityBand {
  const rounded = Math.round(grade);
  return bands.find((band) => rounded >= band.from) ?? bands[bands.length - 1];
}

/** The bands in words, for the tooltip beside a grade. */
export const qualityBandsText = 'Good: 80 or more · Fair: 60 to 79 · Needs attention: below 60';
