/**
 * A small non-validating XML tokenizer for the XML loader and the parts of OOXML and EPUB archives. It
 * never expands DTD entities (only the five predefined ones and character references), so an entity
 * bomb stays inert, and it does not build a tree, so huge sheets stream through.
 */

export type XmlToken =
  | { type: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string };

// No alternative reaches past the next `<` unless it ends at the end of input, so a broken file scans in
// linear time (XML allows no `<` inside attribute values).
const TOKEN = new RegExp(
  [
    String.raw`<!--[\s\S]*?(?:-->|$)`,
    String.raw`<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)`,
    String.raw`<\?[\s\S]*?(?:\?>|$)`,
    String.raw`<!(?:[^[>]|\[[^\]]*(?:\]|$))*(?:>|$)`,
    String.raw`<\/\s*([^\s<>]+)\s*>`,
    String.raw`<([A-Za-z_:\u00C0-\uFFFF][^\s/<>]*)((?:\s+[^\s=/<>]+(?:\s*=\s*(?:"[^"<]*"|'[^'<]*'|[^\s<>"']+))?)*)\s*(\/?)>`,
    String.raw`([^<]+)`,
    '<',
  ].join('|'),
  'y',
);
const ATTRIBUTE = /([^\s=/<>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s<>"']+)))?/g;
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function fromCodePoint(code: number, original: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : original;
}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (match, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (hex) return fromCodePoint(parseInt(hex, 16), match);
    if (dec) return fromCodePoint(parseInt(dec, 10), match);
    return NAMED[named!];
  });
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (!source) return attrs;
  const pattern = new RegExp(ATTRIBUTE);
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(source)) !== null)
    attrs[match[1]] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  return attrs;
}

export function* scanXml(source: string): Generator<XmlToken> {
  const pattern = new RegExp(TOKEN);
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < source.length && (match = pattern.exec(source)) !== null) {
    if (match[3] !== undefined)
      yield { type: 'open', name: match[3], attrs: parseAttributes(match[4]), selfClosing: match[5] === '/' };
    else if (match[2] !== undefined) yield { type: 'close', name: match[2] };
    else if (match[6] !== undefined) yield { type: 'text', text: decodeEntities(match[6]) };
    else if (match[1] !== undefined) yield { type: 'text', text: match[1] };
    else if (match[0] === '<') yield { type: 'text', text: '<' };
  }
}

/** `w:t` → `t`. */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** An attribute by local name, whatever its prefix (`r:id`, `id`). */
export function attribute(attrs: Record<string, string>, local: string): string | undefined {
  for (const [key, value] of Object.entries(attrs)) if (localName(key) === local) return value;
  return undefined;
}

/** The text of every element with this local name (descendant text concatenated), in document order. */
export function elementTexts(source: string, local: string): string[] {
  const texts: string[] = [];
  let depth = 0;
  let current = '';
  for (const token of scanXml(source)) {
    if (token.type === 'open' && localName(token.name) === local) {
      if (depth === 0) current = '';
      if (!token.selfClosing) depth++;
      else if (depth === 0) texts.push('');
    } else if (token.type === 'close' && localName(token.name) === local && depth > 0) {
      if (--depth === 0) texts.push(current.trim());
    } else if (token.type === 'text' && depth > 0) current += token.text;
  }
  return texts;
}
