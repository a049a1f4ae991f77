/**
 * Type names that denote one kind of thing. A graph grows such near-synonyms when extraction under
 * different domains (or a person) names one kind twice — "Place" beside "Location" — so that one city
 * would otherwise become two nodes.
 */
const kindsOfThing: readonly ReadonlySet<string>[] = [
  ['location', 'place', 'city', 'country', 'region', 'settlement'],
  ['organization', 'organisation', 'institution', 'company', 'agency'],
  ['creative work', 'work', 'film', 'book', 'album', 'song', 'document'],
].map((names) => new Set(names));

const kindKey = (type: string) =>
  type
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();

/** Whether two different type names name one kind of thing (a name is never its own kind here: compare equal names first). */
export function sameKindOfThing(a: string, b: string): boolean {
  const [left, right] = [kindKey(a), kindKey(b)];
  return kindsOfThing.some((kind) => kind.has(left) && kind.has(right));
}
