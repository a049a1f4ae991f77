import type { Db } from '../storage/index.ts';
import type { LedgerChunk, RetrievalLedger } from './ledger.ts';
import { entityLabels } from './read-model.ts';

/**
 * Citation repair and validation (docs/decisions/0012). The model cites `[[cite:C0:S2|file]]` by the
 * aliases it was shown; what is stored cites the real chunk: `[[cite:<chunk_id>:S2,S3|<filename>]]`,
 * keyed `"<chunk_id>:S2,S3"` in `chunk_citations` with the sentence text, source and page, so a marker
 * resolves after the turn's aliases are gone.
 *
 * Repaired: single brackets (`[C0:S2]`), a missing `cite:`, bare sentence numbers and ranges (`2-4`),
 * a real chunk id instead of the alias, a wrong file label, a marker with no (or only invalid) sentence
 * numbers — the chunk's sentence sharing most words with the text before the marker is cited.
 * Dropped: a marker naming a chunk the turn never retrieved. Entity markers `[[node:ID|Label]]` and
 * `[[edge:ID|Label]]` keep their stored label; one naming nothing that exists becomes its plain label.
 */

export interface ChunkCitation {
  chunk_id: string;
  sentence_refs: string[];
  label: string;
  sentence_text: string;
  source_id: string;
  page_number: number | null;
  has_vision_image: boolean;
}

export interface ReferencedEntity {
  id: string;
  label: string;
  kind: 'node' | 'edge';
  template_id: string;
}

export interface FinalizedAnswer {
  content: string;
  chunk_citations: Record<string, ChunkCitation>;
  referenced_entities: ReferencedEntity[];
  /** Markers removed because they cite nothing retrieved. */
  dropped_citations: number;
}

const citeMarker =
  /\[\[\s*(cite\s*:\s*)?([^\]|]*?)\s*(?:\|[^\]]*)?\]\]|\[\s*(C\d+(?:\s*:\s*S?\d+(?:\s*[-–,]\s*S?\d+)*)?)\s*\]/gi;
const entityMarker = /\[\[\s*(node|edge)\s*:\s*([^\]|]+?)\s*(?:\|([^\]]*))?\]\]/gi;
const refToken = /S?(\d+)(?:\s*[-–]\s*S?(\d+))?/gi;

function sentenceNumbers(refs: string, chunk: LedgerChunk): number[] {
  const numbers = new Set<number>();
  for (const match of refs.matchAll(refToken)) {
    const from = Number(match[1]);
    const to = match[2] ? Number(match[2]) : from;
    for (let n = from; n <= Math.min(to, from + 50); n++) if (n >= 1 && n <= chunk.sentences.length) numbers.add(n);
  }
  return [...numbers].sort((a, b) => a - b);
}

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** The sentence of the chunk sharing most words with the claim written just before the marker (S1 when none). */
function bestSentence(chunk: LedgerChunk, claim: string): number {
  const claimWords = words(claim);
  let best = 1;
  let bestOverlap = 0;
  chunk.sentences.forEach((sentence, index) => {
    const overlap = [...words(sentence)].filter((word) => claimWords.has(word)).length;
    if (overlap > bestOverlap) [best, bestOverlap] = [index + 1, overlap];
  });
  return best;
}

/** The last sentence of the answer text before a marker (since the previous marker). */
function claimBefore(text: string, end: number, previousEnd: number): string {
  const before = text.slice(previousEnd, end);
  const pieces = before.split(/(?<=[.!?])\s+/).filter((piece) => piece.trim());
  return pieces.at(-1) ?? before;
}

/** Whether a `[[…]]` without `cite:` is meant as a citation: it names a chunk alias or a retrieved chunk. */
const looksLikeCitation = (ref: string, ledger: RetrievalLedger) =>
  /^C\d+$/i.test(ref) || ledger.chunk(ref) !== undefined;

function repairCitations(text: string, ledger: RetrievalLedger): Omit<FinalizedAnswer, 'referenced_entities'> {
  const citations: Record<string, ChunkCitation> = {};
  let dropped = 0;
  let previousEnd = 0;
  let lastKey: string | null = null;
  const content = text.replace(
    citeMarker,
    (
      marker: string,
      prefix: string | undefined,
      doubled: string | undefined,
      single: string | undefined,
      offset: number,
    ) => {
      const body = (doubled ?? single ?? '').trim();
      const colon = body.indexOf(':');
      const ref = (colon < 0 ? body : body.slice(0, colon)).trim();
      if (doubled !== undefined && !prefix && !looksLikeCitation(ref, ledger)) return marker;
      const chunk = ledger.chunk(ref);
      const claim = claimBefore(text, offset, previousEnd);
      const adjacent = !text.slice(previousEnd, offset).trim();
      previousEnd = offset + marker.length;
      if (!chunk) {
        dropped += 1;
        return '';
      }
      let numbers = colon < 0 ? [] : sentenceNumbers(body.slice(colon + 1), chunk);
      if (!numbers.length) numbers = chunk.sentences.length ? [bestSentence(chunk, claim)] : [];
      if (!numbers.length) {
        dropped += 1;
        return '';
      }
      const refs = numbers.map((n) => `S${n}`);
      const key = `${chunk.chunkId}:${refs.join(',')}`;
      citations[key] = {
        chunk_id: chunk.chunkId,
        sentence_refs: refs,
        label: chunk.filename,
        sentence_text: numbers.map((n) => chunk.sentences[n - 1]).join(' '),
        source_id: chunk.sourceId,
        page_number: chunk.sentencePages[numbers[0] - 1] ?? chunk.pageNumber,
        has_vision_image: false,
      };
      // The same citation twice in a row says nothing more.
      const repeated = key === lastKey && adjacent;
      lastKey = key;
      return repeated ? '' : `[[cite:${key}|${chunk.filename}]]`;
    },
  );
  return { content, chunk_citations: citations, dropped_citations: dropped };
}

async function repairEntities(db: Db, text: string): Promise<{ content: string; entities: ReferencedEntity[] }> {
  const mentions = [...text.matchAll(entityMarker)].map((match) => ({
    kind: match[1].toLowerCase() as 'node' | 'edge',
    id: match[2].trim(),
  }));
  const ids = (kind: 'node' | 'edge') => [
    ...new Set(mentions.filter((mention) => mention.kind === kind).map((mention) => mention.id)),
  ];
  const known = new Map<string, ReferencedEntity>();
  for (const kind of ['node', 'edge'] as const) {
    const wanted = ids(kind);
    if (!wanted.length) continue;
    for (const row of await entityLabels(db, kind, wanted)) known.set(`${kind}:${row.id}`, { ...row, kind });
  }
  const entities = new Map<string, ReferencedEntity>();
  const content = text.replace(entityMarker, (_marker: string, kind: string, id: string, label: string | undefined) => {
    const entity = known.get(`${kind.toLowerCase()}:${id.trim()}`);
    if (!entity) return (label ?? '').trim();
    entities.set(`${entity.kind}:${entity.id}`, entity);
    return `[[${entity.kind}:${entity.id}|${entity.label}]]`;
  });
  return { content, entities: [...entities.values()] };
}

const tidy = (content: string) =>
  content
    .replace(/[ \t]+\n/g, '\n')
    .replace(/ {2,}/g, ' ')
    .trim();

/** The stored form of an answer: citations and entity markers repaired and validated. */
export async function finalizeAnswer(db: Db, text: string, ledger: RetrievalLedger): Promise<FinalizedAnswer> {
  const cited = repairCitations(text, ledger);
  const { content, entities } = await repairEntities(db, cited.content);
  return { ...cited, content: tidy(content), referenced_entities: entities };
}

/**
 * The citations of an answer (or the beginning of one) in their stored form, entity markers left as
 * written: a citation resolves from the text before it and the ledger alone, so the beginning of an
 * answer resolves as it will once the answer is complete.
 */
export function resolveCitations(text: string, ledger: RetrievalLedger): Omit<FinalizedAnswer, 'referenced_entities'> {
  const cited = repairCitations(text, ledger);
  return { ...cited, content: tidy(cited.content) };
}
