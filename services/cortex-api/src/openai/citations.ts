import type { CompletionCitationBody } from '@rhizome/contracts/api/openai';
import type { ChunkCitation } from '@rhizome/core/chat';

/** A stored answer's markers: `[[cite:<chunk>:S1|file]]` citations and `[[node:ID|Label]]` entity mentions. */
const storedCite = /\[\[cite:([^\]|]+)\|[^\]]*\]\]/g;
const entityMention = /\[\[(?:node|edge):[^\]|]+\|([^\]]*)\]\]/g;

export interface ReadableAnswer {
  /** The answer with `[n]` for each citation and a numbered list of sources at the end. */
  text: string;
  citations: CompletionCitationBody[];
}

const pageOf = (page: number | null) => (page === null ? '' : `, p. ${page}`);

/** The sources list appended to an answer: one numbered line per cited source and page. */
export function sourcesFooter(citations: readonly CompletionCitationBody[]): string {
  if (!citations.length) return '';
  return `\n\nSources:\n${citations.map((citation) => `[${citation.index}] ${citation.filename}${pageOf(citation.page)}`).join('\n')}`;
}

/**
 * Numbers the answer's citations by source and page, in the order the text first cites them; an
 * entity mention becomes its label. What a chat front end shows as plain text reads naturally.
 */
export function numberCitations(
  content: string,
  stored: Record<string, ChunkCitation>,
): { body: string; citations: CompletionCitationBody[] } {
  const citations = new Map<string, CompletionCitationBody>();
  const body = content
    .replace(storedCite, (_marker, key: string) => {
      const cited = stored[key];
      if (!cited) return '';
      const reference = `${cited.source_id}#${cited.page_number ?? ''}`;
      let citation = citations.get(reference);
      if (!citation) {
        citation = {
          index: citations.size + 1,
          source_id: cited.source_id,
          filename: cited.label,
          page: cited.page_number,
          chunk_id: cited.chunk_id,
          sentences: [],
        };
        citations.set(reference, citation);
      }
      if (!citation.sentences.includes(cited.sentence_text)) citation.sentences.push(cited.sentence_text);
      return `[${citation.index}]`;
    })
    .replace(entityMention, (_marker, label: string) => label)
    // "[1][1]" from two sentences of one page says it once.
    .replace(/(\[\d+\])(?:\s*\1)+/g, '$1');
  return { body, citations: [...citations.values()] };
}

export function readableAnswer(content: string, stored: Record<string, ChunkCitation>): ReadableAnswer {
  const { body, citations } = numberCitations(content, stored);
  return { text: `${body}${sourcesFooter(citations)}`, citations };
}
