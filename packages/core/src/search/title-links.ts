/**
 * Keyword search's one step past the query's words: a leading passage that names another source by
 * its title ("the music is by Jonny Greenwood", and a source titled "Jonny Greenwood") is followed
 * there, as a reader follows a wiki link. A question about something the query does not name ("where
 * was the composer of Inherent Vice born") is answered by that other source, which holds none of its
 * words. The titles are the retrieval graph's (`passages.ts`: titles and the aliases no two sources
 * claim), and a name is a capitalised run of words (`nameSpans`), longest first where runs overlap.
 */
import { graphAdjacency } from './graph/adjacency.ts';
import { nameSpans } from './graph/link.ts';
import { passageGraph, type PassageGraph } from './graph/passages.ts';
import { chunksInScope } from './read-model/chunks.ts';
import { readGraphVersion } from './read-model/graph-rows.ts';
import type { RankedItem, SearchContext, SearchScope } from './types.ts';

/** The leading passages whose titled mentions are followed. */
export const linkingPassages = 2;
/** Titled sources followed from one passage, in the order the passage names them. */
export const linksPerPassage = 3;

/** The passage indices of the sources `text` names by title, in the order it names them, its own left out. */
function titledIn(graph: PassageGraph, text: string, own: number | undefined): number[] {
  const spans = nameSpans(text).sort((a, b) => a.start - b.start || b.end - a.end);
  const found: number[] = [];
  let covered = 0;
  for (const span of spans) {
    if (span.start < covered) continue;
    const passage = span.keys.map((key) => graph.titles.get(key.toLowerCase())).find((v) => v !== undefined);
    if (passage === undefined) continue;
    covered = span.end;
    if (passage !== own && !found.includes(passage)) found.push(passage);
  }
  return found;
}

/**
 * `items` with the first passage of each source a leading passage (the first `linkingPassages`
 * chunks) names by title placed right after it, at most `linksPerPassage` each, scored as the
 * passage naming it; sources outside the scope or disabled are left out, and a passage already
 * ranked moves up rather than appearing twice. At most `limit` items.
 */
export async function withTitledSources(
  context: SearchContext,
  items: RankedItem[],
  scope: SearchScope,
  limit: number,
): Promise<RankedItem[]> {
  const leading = items.filter((item) => item.kind === 'chunk').slice(0, linkingPassages);
  if (!leading.length || scope.templateId !== null) return items;
  const { db } = context;
  const version = await readGraphVersion(db);
  const graph = await passageGraph(db, await graphAdjacency(db, version), version);
  if (!graph.titles.size) return items;
  const contents = await chunksInScope(db, leading, scope);
  const links = new Map<string, RankedItem[]>();
  for (const item of leading) {
    const named = titledIn(graph, contents.get(item.id) ?? '', graph.chunkIndex.get(item.id));
    const targets = named
      .map((passage) => graph.chunkIds[passage])
      .filter((id) => !leading.some((lead) => lead.id === id));
    links.set(
      item.id,
      targets.map((id) => ({ kind: 'chunk', id, score: item.score })),
    );
  }
  const shown = await chunksInScope(db, [...links.values()].flat(), scope);
  const placed = new Set<string>();
  const out: RankedItem[] = [];
  const place = (item: RankedItem) => {
    const key = `${item.kind}:${item.id}`;
    if (placed.has(key)) return false;
    placed.add(key);
    out.push(item);
    return true;
  };
  for (const item of items) {
    place(item);
    let followed = 0;
    for (const link of links.get(item.id) ?? []) {
      if (followed >= linksPerPassage) break;
      if (shown.has(link.id) && place(link)) followed++;
    }
  }
  return out.slice(0, limit);
}
