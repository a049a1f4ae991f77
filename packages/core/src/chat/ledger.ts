import { shownSentences, type ShownChunk } from '../search/index.ts';
import { pageAtOffset, sentenceSpans, type PageStart } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { chunksWithSource, type ChunkWithSource } from './read-model.ts';

/**
 * What a turn actually retrieved: the chunks shown to the model under short aliases (`C0`, `C1`, …)
 * with their sentences numbered `S1…`, and the entities it was shown. Citations are validated against
 * this and nothing else, so an answer cannot cite a passage it never saw (nor one outside the scope,
 * which retrieval never returned).
 */

export interface LedgerChunk extends ShownChunk {
  alias: string;
  chunkId: string;
  sourceId: string;
  filename: string;
  pageNumber: number | null;
  sentences: string[];
  /** The page each sentence begins on (a chunk may run over a page break). */
  sentencePages: (number | null)[];
}

export interface LedgerNode {
  id: string;
  label: string;
  template_id: string | null;
}

/** The sentences of a chunk as citations number them (S1 is index 0); the same splitter as extraction's. */
export function chunkSentences(content: string): string[] {
  return sentenceSpans(content).map(([start, end]) => content.slice(start, end).replace(/\s+/g, ' '));
}

function sentencePages(row: ChunkWithSource): (number | null)[] {
  const pageStarts =
    (row.chunk_metadata ? (JSON.parse(row.chunk_metadata) as { page_starts?: PageStart[] }).page_starts : undefined) ??
    null;
  return sentenceSpans(row.content).map(([start]) => pageAtOffset({ page: row.page_number, pageStarts }, start));
}

export class RetrievalLedger {
  private readonly byAlias = new Map<string, LedgerChunk>();
  private readonly byChunkId = new Map<string, LedgerChunk>();
  readonly nodes = new Map<string, LedgerNode>();
  /** The relationships the turn was shown, as `A —type→ B` lines. */
  readonly facts = new Set<string>();

  /** Registers chunks (new ones get the next alias), in the given order; unknown ids are skipped. */
  async addChunks(db: Db, chunkIds: readonly string[]): Promise<LedgerChunk[]> {
    const missing = [...new Set(chunkIds)].filter((id) => !this.byChunkId.has(id));
    if (missing.length) {
      const rows = await chunksWithSource(db, missing);
      const found = new Map(rows.map((row) => [row.id, row]));
      for (const id of missing) {
        const row = found.get(id);
        if (!row) continue;
        this.register({
          alias: `C${this.byAlias.size}`,
          chunkId: row.id,
          sourceId: row.source_id,
          filename: row.filename,
          pageNumber: row.page_number,
          sentences: chunkSentences(row.content),
          sentencePages: sentencePages(row),
          place: { sourceId: row.source_id, index: row.chunk_index, start: row.start_offset, end: row.end_offset },
          length: row.content.length,
          sentenceSpans: sentenceSpans(row.content),
        });
      }
    }
    return chunkIds.flatMap((id) => this.byChunkId.get(id) ?? []);
  }

  /** Takes chunks as another ledger registered them, aliases included: how a turn's ledger is followed elsewhere. */
  register(...chunks: LedgerChunk[]): void {
    for (const chunk of chunks) {
      this.byAlias.set(chunk.alias, chunk);
      this.byChunkId.set(chunk.chunkId, chunk);
    }
  }

  addNodes(nodes: readonly LedgerNode[]): void {
    for (const node of nodes) this.nodes.set(node.id, node);
  }

  addFacts(facts: readonly string[]): void {
    for (const fact of facts) this.facts.add(fact);
  }

  /** A chunk by alias (any case) or by its real id. */
  chunk(ref: string): LedgerChunk | undefined {
    return this.byAlias.get(ref.toUpperCase()) ?? this.byChunkId.get(ref);
  }

  /** Every chunk retrieved, in alias order. */
  chunks(): LedgerChunk[] {
    return [...this.byAlias.values()];
  }

  /**
   * The sentences of a chunk the model is shown, [from, to) over its numbering: not those a consecutive
   * chunk of its source retrieved before it shows (the overlap chunks share), so nothing reads twice and
   * every number shown still cites the chunk's own sentence.
   */
  shownSentences(chunk: LedgerChunk): [number, number] {
    const chunks = this.chunks();
    return shownSentences(chunks)[chunks.indexOf(chunk)] ?? [0, chunk.sentences.length];
  }
}

/** Document text can neither close the wrapper it is shown in nor pass for an answer marker. */
function neutralise(text: string): string {
  return text.replace(/<\/?\s*untrusted_document\s*>/gi, '').replace(/\[\[/g, '[ [');
}

/**
 * A chunk as the model reads it: wrapped as untrusted data, with its alias, file and numbered sentences,
 * those in `[from, to)`; the ones left out are named, so the numbering shown stays the chunk's own.
 */
export function formatChunk(chunk: LedgerChunk, [from, to]: [number, number] = [0, chunk.sentences.length]): string {
  const page = chunk.pageNumber === null ? '' : ` | page ${chunk.pageNumber}`;
  const range = (first: number, last: number) => (first === last ? `S${first}` : `S${first}-S${last}`);
  const sentences = [
    ...(from > 0 ? [`(${range(1, from)}: as in the chunk before, not repeated)`] : []),
    ...chunk.sentences.slice(from, to).map((sentence, index) => `[S${from + index + 1}] ${neutralise(sentence)}`),
    ...(to < chunk.sentences.length
      ? [`(${range(to + 1, chunk.sentences.length)}: as in the chunk after, not repeated)`]
      : []),
  ].join('\n');
  return `<untrusted_document>\n[CHUNK ${chunk.alias} | ${neutralise(chunk.filename)}${page}]\n${sentences}\n</untrusted_document>`;
}
