import type { MergedCitations } from '../graph/index.ts';
import type { Db } from '../storage/index.ts';
import {
  captureCitations,
  changedCitations,
  restoreCitations,
  targetColumns,
  type CitationTable,
} from './citation-journal.ts';

/** The longest context snippet a citation keeps. */
export const snippetMaxChars = 1000;

/** How a citation's snippet joins the supporting sentences it quotes. */
export const sentenceSeparator = ' … ';

interface CitationRow {
  id: string;
  target: string;
  source_id: string;
  chunk_id: string | null;
  confidence: number | null;
  context_snippet: string | null;
  citation_metadata: string | null;
}

interface Span {
  start: number;
  end: number;
}

/** One sentence a citation quotes: its text, and its offsets in the passage when the citation records them. */
interface Quoted {
  text: string;
  span: Span | null;
}

/** How a node merge of the graph carries the citations of the nodes and edges it removes along, and its undo gives them back. */
export const mergedCitations: MergedCitations = {
  async moveNodeCitations(trx, keptId, mergedIds) {
    const moved = await trx('source_citations').whereIn('entity_uri', mergedIds).update({ entity_uri: keptId });
    await collapseCitations(trx, 'source_citations', [keptId]);
    return moved;
  },
  async moveEdgeCitations(trx, survivorId, duplicateIds) {
    await trx('relationship_citations').whereIn('edge_id', duplicateIds).update({ edge_id: survivorId });
    await collapseCitations(trx, 'relationship_citations', [survivorId]);
  },
  captureCitations,
  changedCitations,
  restoreCitations,
};

/**
 * Makes each of `targetIds` cite a passage once, after a merge moved two items' citations onto one:
 * the citations of one target from the same source and chunk become the oldest of them, quoting every
 * sentence they quoted once, in passage order, with the highest confidence. Returns how many went.
 */
async function collapseCitations(trx: Db, table: CitationTable, targetIds: string[]): Promise<number> {
  if (!targetIds.length) return 0;
  const rows = (await trx(table)
    .whereIn(targetColumns[table], targetIds)
    .orderBy([{ column: 'created_at' }, { column: 'rowid' }])
    .select(
      'id',
      `${targetColumns[table]} as target`,
      'source_id',
      'chunk_id',
      'confidence',
      'context_snippet',
      'citation_metadata',
    )) as CitationRow[];
  const passages = new Map<string, CitationRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.target, row.source_id, row.chunk_id ?? row.context_snippet ?? row.id]);
    passages.set(key, [...(passages.get(key) ?? []), row]);
  }
  let removed = 0;
  for (const citations of passages.values()) {
    if (citations.length < 2) continue;
    const [survivor, ...others] = citations;
    await trx(table).where({ id: survivor.id }).update(united(citations));
    await trx(table)
      .whereIn(
        'id',
        others.map((row) => row.id),
      )
      .delete();
    removed += others.length;
  }
  return removed;
}

/** The columns of one citation standing for all of `citations` (same target, source and chunk). */
function united(citations: CitationRow[]) {
  const quoted = new Map<string, Quoted>();
  for (const row of citations) {
    for (const sentence of quotedBy(row)) {
      const key = sentence.span ? `${sentence.span.start}:${sentence.span.end}` : sentence.text;
      if (!quoted.has(key)) quoted.set(key, sentence);
    }
  }
  const ordered = [...quoted.values()].sort(
    (a, b) => (a.span?.start ?? Number.MAX_SAFE_INTEGER) - (b.span?.start ?? Number.MAX_SAFE_INTEGER),
  );
  const spans = ordered.flatMap((sentence) => (sentence.span ? [sentence.span] : []));
  const earliest = citations.reduce((best, row) => (firstStart(row) < firstStart(best) ? row : best));
  const metadata = metadataOf(earliest);
  const confidences = citations.flatMap((row) => (row.confidence === null ? [] : [row.confidence]));
  return {
    context_snippet: ordered.length
      ? ordered
          .map((sentence) => sentence.text)
          .join(sentenceSeparator)
          .slice(0, snippetMaxChars)
      : null,
    citation_metadata:
      metadata || spans.length ? JSON.stringify({ ...metadata, ...(spans.length ? { sentences: spans } : {}) }) : null,
    confidence: confidences.length ? Math.max(...confidences) : null,
  };
}

/** The sentences a citation quotes; offsets pair with them only when it records one per quoted sentence. */
function quotedBy(row: CitationRow): Quoted[] {
  if (!row.context_snippet) return [];
  const texts = row.context_snippet.split(sentenceSeparator);
  const spans = spansOf(row);
  return texts.map((text, index) => ({ text, span: spans.length === texts.length ? spans[index] : null }));
}

function firstStart(row: CitationRow): number {
  return spansOf(row)[0]?.start ?? Number.MAX_SAFE_INTEGER;
}

function spansOf(row: CitationRow): Span[] {
  const sentences = metadataOf(row)?.sentences;
  if (!Array.isArray(sentences)) return [];
  return sentences.filter(
    (span): span is Span =>
      typeof span === 'object' && span !== null && typeof span.start === 'number' && typeof span.end === 'number',
  );
}

function metadataOf(row: CitationRow): Record<string, unknown> | null {
  if (!row.citation_metadata) return null;
  try {
    const parsed = JSON.parse(row.citation_metadata) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
