/** "1 relationship", "3 relationships", "1,204 passages": a count with its noun in the right number. */
export function countOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${value.toLocaleString()} ${value === 1 ? singular : plural}`;
}
