import type { LedgerNode } from './ledger.ts';

/**
 * Entity markers for an answer written without a model (builtin): the first mention of each retrieved
 * entity's label becomes `[[node:ID|Label]]`, longest labels first, never inside an existing marker.
 */

const marker = /(\[\[[^\]]*\]\])/;
const minLabelChars = 3;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function markFirst(text: string, node: LedgerNode): string {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(node.label)}(?![\\p{L}\\p{N}])`, 'u');
  const pieces = text.split(marker);
  // split() with a capturing group puts the markers at the odd indexes.
  const index = pieces.findIndex((piece, at) => at % 2 === 0 && pattern.test(piece));
  if (index < 0) return text;
  pieces[index] = pieces[index].replace(pattern, `[[node:${node.id}|${node.label}]]`);
  return pieces.join('');
}

export function markEntityMentions(text: string, nodes: Iterable<LedgerNode>): string {
  const byLength = [...nodes]
    .filter((node) => node.label.trim().length >= minLabelChars)
    .sort((a, b) => b.label.length - a.label.length);
  return byLength.reduce(markFirst, text);
}
