/**
 * Search's read model of the rows it returns: the graph's `graph_nodes` (label, template, the degree its
 * triggers keep) and the sources feature's `document_chunks` with their `sources` (the filename shown).
 * Read in raw SQL by id lists, one statement per kind, because a ranking is hydrated on every search.
 */
import type { SearchResultBody } from '@rhizome/contracts/api/search';
import { sentenceSpans } from '../../sources/index.ts';
import { jsonArrayValues, selectRows, type Db } from '../../storage/index.ts';
import { shownSentences } from '../overlap.ts';
import type { RankedItem } from '../types.ts';

export type SearchResult = SearchResultBody;

interface NodeRow {
  id: string;
  label: string;
  template_id: string | null;
  degree: number;
}

interface ChunkRow {
  id: string;
  source_id: string;
  chunk_index: number;
  content: string;
  page_number: number | null;
  section: string | null;
  start_offset: number | null;
  end_offset: number | null;
  filename: string;
}

/**
 * The chunk's content as a result shows it: without the sentences it shares with a consecutive chunk of
 * its source ranked above it (chunks overlap for embedding; side by side the shared text would read twice).
 */
function withoutRepeats(rows: readonly ChunkRow[]): Map<string, string> {
  const spans = rows.map((row) => sentenceSpans(row.content));
  const shown = shownSentences(
    rows.map((row, position) => ({
      place: { sourceId: row.source_id, index: row.chunk_index, start: row.start_offset, end: row.end_offset },
      length: row.content.length,
      sentenceSpans: spans[position],
    })),
  );
  return new Map(
    rows.map((row, position) => {
      const [from, to] = shown[position];
      const sentences = spans[position];
      // A chunk its neighbours cover entirely still shows its text: a result without any would read as an error.
      const whole = from >= to || (from === 0 && to === sentences.length);
      return [row.id, whole ? row.content : row.content.slice(sentences[from][0], sentences[to - 1][1])];
    }),
  );
}

/**
 * A ranking as the API's SearchResult objects, in rank order: one query for the nodes (edge_count is
 * the degree the edge triggers keep) and one for the chunks with their source's filename. An item whose
 * row went away since it was ranked is left out; a chunk's content leaves out what a consecutive chunk
 * ranked above it already shows.
 */
export async function hydrate(db: Db, items: RankedItem[]): Promise<SearchResult[]> {
  const nodeIds = [...new Set(items.filter((item) => item.kind === 'node').map((item) => item.id))];
  const chunkIds = [...new Set(items.filter((item) => item.kind === 'chunk').map((item) => item.id))];
  const nodes = new Map<string, NodeRow>();
  const chunks = new Map<string, ChunkRow>();
  if (nodeIds.length) {
    const rows = await selectRows<NodeRow>(
      db,
      `SELECT n.id, n.label, n.template_id, n.degree FROM graph_nodes n WHERE n.id IN (${jsonArrayValues(db)})`,
      [JSON.stringify(nodeIds)],
    );
    for (const row of rows) nodes.set(row.id, row);
  }
  if (chunkIds.length) {
    const rows = await selectRows<ChunkRow>(
      db,
      `SELECT c.id, c.source_id, c.chunk_index, c.content, c.page_number, c.section, c.start_offset, c.end_offset, COALESCE(s.filename, s.title, s.origin_url, '') AS filename
       FROM document_chunks c JOIN sources s ON s.id = c.source_id WHERE c.id IN (${jsonArrayValues(db)})`,
      [JSON.stringify(chunkIds)],
    );
    for (const row of rows) chunks.set(row.id, row);
  }
  const ranked = [...new Set(items.flatMap((item) => (item.kind === 'chunk' ? [item.id] : [])))];
  const contents = withoutRepeats(ranked.flatMap((id) => chunks.get(id) ?? []));
  const results: SearchResult[] = [];
  for (const item of items) {
    if (item.kind === 'node') {
      const node = nodes.get(item.id);
      if (!node) continue;
      results.push({
        result_type: 'node',
        score: item.score,
        chunk: null,
        node: { id: node.id, label: node.label, template_id: node.template_id, edge_count: Math.max(0, node.degree) },
      });
    } else {
      const chunk = chunks.get(item.id);
      if (!chunk) continue;
      results.push({
        result_type: 'chunk',
        score: item.score,
        node: null,
        chunk: {
          chunk_id: chunk.id,
          source_id: chunk.source_id,
          chunk_index: chunk.chunk_index,
          content: contents.get(chunk.id) ?? chunk.content,
          page_number: chunk.page_number,
          section: chunk.section,
          filename: chunk.filename,
        },
      });
    }
  }
  return results;
}
