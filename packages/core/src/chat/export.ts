import type { ChatBody, MessageBody } from '@rhizome/contracts/api/chats';
import type { ChunkCitation } from './citations.ts';

/**
 * A chat as Markdown: a heading per message role, entity markers reduced to bold labels, citation
 * markers as numbered footnotes carrying the source filename (and page) and the cited sentences. The
 * same citation cited again reuses its footnote number.
 */

const citeMarker = /\[\[cite:([^\]|]+)\|[^\]]*\]\]/g;
const entityMarker = /\[\[(?:node|edge):[^\]|]+\|([^\]]*)\]\]/g;

const roleHeading = (role: string) => `## ${role.charAt(0).toUpperCase()}${role.slice(1)}`;

function citationsOf(message: MessageBody): Record<string, ChunkCitation> {
  const citations = message.extra_metadata?.chunk_citations;
  return citations && typeof citations === 'object' ? (citations as Record<string, ChunkCitation>) : {};
}

function footnoteText(citation: ChunkCitation | undefined, key: string): string {
  if (!citation) return `cited passage ${key}`;
  const page = citation.page_number === null ? '' : `, page ${citation.page_number}`;
  return `${citation.label || citation.source_id}${page}: "${citation.sentence_text.replace(/\s+/g, ' ')}"`;
}

export function chatToMarkdown(chat: ChatBody): string {
  const footnotes = new Map<string, { number: number; text: string }>();
  const sections = chat.messages.map((message) => {
    const citations = citationsOf(message);
    const body = message.content
      .replace(citeMarker, (_marker: string, key: string) => {
        let note = footnotes.get(key);
        if (!note) {
          note = { number: footnotes.size + 1, text: footnoteText(citations[key], key) };
          footnotes.set(key, note);
        }
        return `[^${note.number}]`;
      })
      .replace(entityMarker, (_marker: string, label: string) => `**${label}**`);
    return `${roleHeading(message.role)}\n\n${body}`;
  });
  const notes = [...footnotes.values()].map((note) => `[^${note.number}]: ${note.text}`);
  return [`# ${chat.title}`, ...sections, ...(notes.length ? [notes.join('\n')] : [])].join('\n\n') + '\n';
}

/** A file name for the export: the title in ASCII letters and digits (safe in a header and on every file system). */
export function exportFilename(chat: ChatBody): string {
  const slug = chat.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'chat'}.md`;
}
