import type { EntityKind } from './kinds.ts';
import type { Token } from './nlp.ts';
import { commands, formats, languages, protocols, software, technicalNouns } from './technical-gazetteer.ts';

/**
 * The technical kind of a name: by the technical gazetteer, by a document's head word ("GNU General
 * Public License", "GNU Tar Manual"), by the word after it ("SOCKS protocol", "texinfo format", "the
 * EscapeChar configuration directive"), or by its shape (an inner capital: "OpenSSH", "FreeBSD").
 */

const DOCUMENT_HEADS = new Set([
  'license',
  'licence',
  'manual',
  'specification',
  'guide',
  'handbook',
  'policy',
  'faq',
  'howto',
  'rfc',
]);

/** The kind the name itself gives away, from its `nameKey`; null when it says nothing technical. */
export function technicalKind(key: string): EntityKind | null {
  if (protocols.has(key)) return 'protocol';
  if (formats.has(key)) return 'format';
  if (languages.has(key) && key.length > 1) return 'language';
  if (software.has(key)) return 'software';
  if (commands.has(key)) return 'command';
  const words = key.split(' ');
  if (words.length > 1 && DOCUMENT_HEADS.has(words[words.length - 1])) return 'document';
  return null;
}

/** A capital inside a word that is not a surname prefix: "OpenSSH", "NetBSD", "PermitLocalCommand", not "McLaren". */
function hasInnerCapital(text: string): boolean {
  return /\p{Ll}\p{Lu}/u.test(text) && !/^(?:Mc|Mac|O'|De|Di|Da|La|Le|Van|Von|Du)\p{Lu}/u.test(text);
}

/**
 * The kind the words after the span `[from, to)` give away (up to two: "configuration directive"),
 * else its shape; null when neither says anything.
 */
export function technicalCue(tokens: readonly Token[], from: number, to: number): EntityKind | null {
  for (const next of tokens.slice(to, to + 2)) {
    const kind = technicalNouns.get(next.key);
    if (kind) return kind;
    if (next.key !== 'configuration' && next.key !== 'development') break;
  }
  const words = tokens.slice(from, to);
  if (words.length === 1 && hasInnerCapital(words[0].text)) return 'software';
  return null;
}
