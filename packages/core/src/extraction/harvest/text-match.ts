/**
 * Finding names in sentences: case-insensitive, diacritic-insensitive, whole words only, any run of
 * white space matching any other, curly quotes and dashes matching straight ones.
 */

/** Lower case, no diacritics, straight quotes and hyphens, single spaces. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[‘’‛′`]/g, "'")
    .replace(/[“”„″]/g, '"')
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A bounded memo of `make`: emptied when full, which costs a few recomputations and keeps memory flat.
 * The harvest asks whether each name occurs in each sentence of a group, thousands of times a source,
 * so folding a sentence and compiling a name's pattern once each is most of its time saved.
 */
function memo<T>(limit: number, make: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as T;
    if (cache.size >= limit) cache.clear();
    const value = make(key);
    cache.set(key, value);
    return value;
  };
}

const foldedText = memo(1024, foldText);
const namePattern = memo(4096, (name): RegExp | null => {
  const needle = foldText(name);
  if (needle === '' || !/[\p{L}\p{N}]/u.test(needle)) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(needle).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}])`, 'u');
});

/** Whether `name` occurs in `text` as whole words (not "Ann" inside "Annual"). Both are folded first. */
export function mentions(text: string, name: string): boolean {
  const pattern = namePattern(name);
  return pattern !== null && pattern.test(foldedText(text));
}

/** Whether any of `names` occurs in `text` as whole words. */
export function mentionsAny(text: string, names: readonly string[]): boolean {
  return names.some((name) => mentions(text, name));
}

/** `"Born In"`, `"BORN-IN"`, `"bornIn"`, `"born in "` → `"born_in"`. */
export function snakeCase(text: string): string {
  return foldText(text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2'))
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** The words of a type name, lower case: `"Life Event"` → `["life", "event"]`, `"born_in"` → `["born", "in"]`. */
export function typeWords(text: string): string[] {
  return snakeCase(text).split('_').filter(Boolean);
}

/** A light English singular: companies → company, places → place, classes → class, people → person. */
export function singular(word: string): string {
  if (word === 'people') return 'person';
  if (word === 'children') return 'child';
  if (word === 'men' || word === 'women') return word.replace(/men$/, 'man');
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A light suffix stripper for comparing relationship words: married/marries/marry, founded/founder/founds. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'ers', 'er', 'ed', 'es', 's', 'y', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}
