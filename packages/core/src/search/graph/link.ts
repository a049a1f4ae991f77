/**
 * Entity linking for graph search: the entities a query names, found by exact name. Every run of up
 * to `maxNameWords` consecutive query words is looked up (lower-cased) in `graph_nodes.name_key`, the
 * key extraction merges entities by, and as typed in `label` (entities made by hand have no key). The
 * longest names win: a match inside a longer matched span is dropped, so "Marie Curie" links Marie
 * Curie and not also an entity called "Curie".
 *
 * A name starts and ends with a capitalised word (or a number) as the query is typed: "the wife of
 * John Middleton Murry" links John Middleton Murry, not whatever entity is called "wife" (builtin
 * extraction leaves common nouns among its entities). A query typed without any capital letter has
 * nothing to go by, so there every run of words may be a name.
 */
import type { Db } from '../../storage/index.ts';
import { nodesNamed } from '../read-model/graph-rows.ts';

/** Words of the longest entity name looked up. */
const maxNameWords = 8;
/** Query words read: a name is rarely further in than this. */
const maxQueryWords = 64;

interface Span {
  start: number;
  end: number;
  /** The forms the words may have been stored under. */
  keys: string[];
  /** Whether the query types the name as one (starting with a capital or a number). */
  named: boolean;
}

/** Strips what surrounds a word in running text but never ends a name: quotes, brackets, sentence punctuation, a possessive. */
function bare(word: string): string {
  return word
    .replace(/^[\p{P}\p{S}]+/u, '')
    .replace(/['’]s$/iu, '')
    .replace(/[\p{P}\p{S}]+$/u, '');
}

/** Every run of 1 to `maxNameWords` words, with the forms a name of those words may be stored under. */
export function nameSpans(query: string): Span[] {
  const words = query.split(/\s+/u).filter(Boolean).slice(0, maxQueryWords);
  const cleaned = words.map(bare);
  const anyCapital = /\p{Lu}/u.test(query);
  const mayBound = cleaned.map((word) => Boolean(word) && (!anyCapital || /^[\p{Lu}\p{Lt}\p{N}]/u.test(word)));
  const spans: Span[] = [];
  for (let start = 0; start < words.length; start++) {
    if (!mayBound[start]) continue;
    for (let end = start + 1; end <= Math.min(words.length, start + maxNameWords); end++) {
      const last = cleaned[end - 1];
      if (!mayBound[end - 1]) continue;
      // Inner words as typed keep a comma or period that belongs to the name ("Lambert, Margrave of Tuscany").
      const typed = [
        ...words.slice(start, end - 1).map((word, i) => (i === 0 ? word.replace(/^[\p{Ps}\p{Pi}"']+/u, '') : word)),
        last,
      ].join(' ');
      const clean = cleaned.slice(start, end).filter(Boolean).join(' ');
      spans.push({ start, end, keys: [...new Set([typed, clean])], named: anyCapital });
    }
  }
  return spans;
}

export interface LinkedEntity {
  id: string;
  /** Linked by a name the query types as one, not by a run of words of a query typed without capitals. */
  named: boolean;
}

/** The entities the query names, longest names first (see the module comment). */
export async function linkEntities(db: Db, query: string): Promise<LinkedEntity[]> {
  const spans = nameSpans(query);
  if (!spans.length) return [];
  const lower = [...new Set(spans.flatMap((span) => span.keys.map((key) => key.toLowerCase())))];
  const typed = [...new Set(spans.flatMap((span) => span.keys))];
  const rows = await nodesNamed(db, lower, typed);
  if (!rows.length) return [];
  const byKey = new Map<string, string[]>();
  for (const row of rows) {
    for (const key of new Set([row.name_key ?? '', row.label.toLowerCase()])) {
      if (key) byKey.set(key, [...(byKey.get(key) ?? []), row.id]);
    }
  }
  const taken = new Uint8Array(spans.reduce((max, span) => Math.max(max, span.end), 0));
  const linked = new Map<string, LinkedEntity>();
  const longestFirst = [...spans].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  for (const span of longestFirst) {
    const ids = [...new Set(span.keys.flatMap((key) => byKey.get(key.toLowerCase()) ?? []))];
    if (!ids.length || taken.subarray(span.start, span.end).some(Boolean)) continue;
    taken.fill(1, span.start, span.end);
    for (const id of ids) if (!linked.has(id)) linked.set(id, { id, named: span.named });
  }
  return [...linked.values()];
}

/** The keys of every name-like run of words in `text` (the capitalisation rule of `nameSpans`), longest first. */
export function nameKeys(text: string): string[] {
  const spans = nameSpans(text).sort((a, b) => b.end - b.start - (a.end - a.start));
  return [...new Set(spans.flatMap((span) => span.keys.map((key) => key.toLowerCase())))];
}
