/**
 * How a quality grade (0–100) reads, the same on the dashboard and on a source. The API's
 * `quality_label` keeps the contract's five-step scale (a 58 is "Good" there); the interface says in
 * three bands whether a person should look closer, so it reads the grade, not that label.
 */
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

/** The bands in words, for the tooltip beside a grade: "Good: 80 or more · Fair: 60 to 79 · …". */
export const qualityBandsText = bands
  .map((band, index) => {
    const above = bands[index - 1];
    const range = !above
      ? `${band.from} or more`
      : band.from === 0
        ? `below ${above.from}`
        : `${band.from} to ${above.from - 1}`;
    return `${band.label}: ${range}`;
  })
  .join(' · ');
