/**
 * The name rules of nodes: the name key (`graph_nodes.name_key`), how an entity's name is compared when an
 * extraction looks for the node that already holds it and when the finaliser deduplicates names, and the
 * aliases a merge of named things keeps (a node merge, an extraction's entity merge).
 */

/**
 * Combining marks of the Latin, Greek and Cyrillic diacritic blocks. Only these are stripped: marks of
 * Indic or other scripts carry vowels, and dropping them would merge different names.
 */
const DIACRITIC_BLOCKS: [number, number][] = [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
];
const stripDiacritics = (text: string) =>
  text.replace(/\p{M}/gu, (mark) => {
    const code = mark.codePointAt(0)!;
    return DIACRITIC_BLOCKS.some(([from, to]) => code >= from && code <= to) ? '' : mark;
  });
/** Letters NFD does not decompose but a reader takes for a plain letter with a stroke or a ligature. */
const FOLDS: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  ı: 'i',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ß: 'ss',
};
const FOLDABLE = /[łŁøØđĐħıæÆœŒß]/g;
/** Typographic variants folded to their plain form, so O’Brien and O'Brien share a key. */
const TYPOGRAPHY: [RegExp, string][] = [
  [/[‘’‚‛′´]/g, "'"],
  [/[“”„‟″«»]/g, '"'],
  [/[‐‑‒–—―]/g, '-'],
];
const SURROUNDING_QUOTES = `"'‹›`;
const TRAILING_PUNCTUATION = '.,;:!?';

/**
 * The normalised name key: NFD, Latin diacritics stripped (plus a few stroke letters folded), lower case,
 * typographic quotes and dashes made plain, whitespace collapsed, surrounding quotes and trailing
 * sentence punctuation stripped, and a name wholly in brackets unwrapped. Symbols that are part of a
 * name stay: "C++", "C#" and ".NET" keep their keys.
 */
export function normalizeNameKey(name: string): string {
  let key = name.replace(/`/g, "'");
  // eslint-disable-next-line no-control-regex -- plain ASCII needs no Unicode folding
  if (!/^[\x00-\x7f]*$/.test(key)) {
    key = stripDiacritics(key.normalize('NFD'))
      .normalize('NFC')
      .replace(FOLDABLE, (letter) => FOLDS[letter]);
    for (const [pattern, plain] of TYPOGRAPHY) key = key.replace(pattern, plain);
  }
  key = key.toLowerCase().replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== key;) {
    previous = key;
    while (key.length > 0 && SURROUNDING_QUOTES.includes(key[0])) key = key.slice(1);
    while (key.length > 0 && (SURROUNDING_QUOTES.includes(key.at(-1)!) || TRAILING_PUNCTUATION.includes(key.at(-1)!)))
      key = key.slice(0, -1);
    if (/^\([^()]*\)$/.test(key) || /^\[[^[\]]*\]$/.test(key)) key = key.slice(1, -1);
    key = key.trim();
  }
  return key;
}

/** Aliases of a merged entity: both lists and the name not kept, deduplicated by key, without the canonical name. */
export function mergeAliases(canonical: string, names: readonly string[]): string[] {
  const seen = new Set([normalizeNameKey(canonical)]);
  const out: string[] = [];
  for (const alias of names) {
    const key = normalizeNameKey(alias);
    if (key.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.push(alias.trim());
  }
  return out;
}
