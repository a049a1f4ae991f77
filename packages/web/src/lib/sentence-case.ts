import { humanise } from './format.ts';

/** A machine name as a label starting a line: `awaiting_confirmation` → "Awaiting confirmation". */
export function sentenceCase(name: string): string {
  const words = humanise(name);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
