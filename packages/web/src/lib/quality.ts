import type { QualityLabel } from '@rhizome/contracts/api/quality';
import { qualityBands } from '@rhizome/contracts/quality-bands';

/**
 * How a quality grade (0–100) reads on the dashboard and on a source: the API's label, in a colour of its
 * band, and the bands in words from the same table the API grades with.
 */
const bandColors: Record<QualityLabel, string> = {
  Outstanding: 'teal',
  Excellent: 'green',
  Good: 'lime',
  Fair: 'yellow',
  Low: 'orange',
};

export function qualityColorOf(label: string): string {
  return bandColors[label as QualityLabel] ?? 'gray';
}

/**
 * The grade as it is written beside its label: cut to a whole number, never rounded up, so that a 49.6
 * reads 49 next to "Fair" and not 50, the start of "Good".
 */
export const shownGrade = (grade: number) => Math.floor(grade);

/** The bands in words, for the tooltip beside a grade: "Outstanding: 85 or more · Excellent: 70 to 84 · …". */
export const qualityBandsText = qualityBands
  .map((band, index) => {
    const above = qualityBands[index - 1];
    const range = !above
      ? `${band.from} or more`
      : band.from === 0
        ? `below ${above.from}`
        : `${band.from} to ${above.from - 1}`;
    return `${band.label}: ${range}`;
  })
  .join(' · ');
