/**
 * Takes the citation markers out of an answer while it streams: the model writes `[[cite:C0:S1|file]]`
 * or `[C0]` by the turn's aliases, which mean nothing to a reader and are only resolved (and numbered)
 * once the answer is complete. Entity mentions `[[node:ID|Label]]` become their label. A marker split
 * across deltas is held back until it closes, so no half marker ever reaches the client.
 */

const doubleMarker = /([ \t]*)\[\[\s*(?:(?:cite\s*:|C\d+)[^\]]*|(?:node|edge)\s*:[^\]|]*\|([^\]]*))\]\]/gi;
const aliasMarker = /[ \t]*\[\s*C\d+(?:\s*:\s*S?\d+(?:\s*[-–,]\s*S?\d+)*)?\s*\]/gi;
/** Longer than any marker: an opening bracket this far back was not one. */
const maxMarkerChars = 300;

function clean(text: string): string {
  return text
    .replace(doubleMarker, (_marker, blank: string, label: string | undefined) =>
      label === undefined ? '' : `${blank}${label.trim()}`,
    )
    .replace(aliasMarker, '');
}

/** Where an unclosed marker starts, if the text ends inside one. */
function openMarker(text: string): number {
  const double = text.lastIndexOf('[[');
  if (double >= 0 && !text.includes(']]', double) && text.length - double <= maxMarkerChars) return double;
  const single = text.lastIndexOf('[');
  if (
    single >= 0 &&
    !text.includes(']', single) &&
    text.length - single <= maxMarkerChars &&
    !text.includes('\n', single)
  )
    return single;
  return text.length;
}

/** Where the text stops being safe to send: an unclosed marker and the blanks before it, or trailing blanks a marker may follow. */
function holdFrom(text: string): number {
  let cut = openMarker(text);
  while (cut > 0 && (text[cut - 1] === ' ' || text[cut - 1] === '\t')) cut -= 1;
  return cut;
}

export class MarkerFilter {
  private held = '';

  /** The part of the text so far that can be sent, markers removed. */
  push(delta: string): string {
    const text = this.held + delta;
    const cut = holdFrom(text);
    this.held = text.slice(cut);
    return clean(text.slice(0, cut));
  }

  /** Whatever was held back, once the answer is complete. */
  flush(): string {
    const rest = clean(this.held);
    this.held = '';
    return rest;
  }
}
