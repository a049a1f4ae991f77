/** Small display helpers shared by the screens. */

export { countOf } from '@rhizome/contracts/wording';

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 && unit ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString();
}

/** Splits text into sentences the way a reader sees them (for display; citations carry their own sentence text). */
export function sentencesOf(text: string): string[] {
  const parts = text.match(/[^.!?\n]+(?:[.!?]+["'”’)\]]*|\n+|$)\s*/g) ?? [text];
  return parts.filter((part) => part.trim().length > 0);
}

/** Whitespace-insensitive form used to find a cited sentence inside a passage. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A machine name a person reads: `works_at` → "works at", `chunkSize` → "chunk size". */
export function humanise(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
}
