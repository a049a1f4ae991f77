/** The colour of each quality label, the same on the dashboard and on a source. */
export const qualityLabelColors: Record<string, string> = {
  Outstanding: 'teal',
  Excellent: 'green',
  Good: 'lime',
  Fair: 'yellow',
  Low: 'red',
};
