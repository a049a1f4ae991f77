/**
 * How two entity names compare when looking for duplicates: name keys split into tokens, the blocking keys
 * that bring candidate pairs together without comparing all pairs, and the name evidence of a pair.
 */

/** Words left out of initials and of containment: "University of Oxford" is U O. */
const connectives = new Set(['of', 'the', 'and', 'for', 'de', 'la', 'le', 'von', 'van', 'der', 'del', 'du', 'a', 'an']);
const romanNumeral = /^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/;
/** A token length below which prefixes say nothing. */
const prefixFrom = 5;
const prefixLength = 4;

export interface NamedNode {
  /** The name key of the label (`normalizeNameKey`). */
  key: string;
  tokens: string[];
  /** Its numbers and roman numerals. */
  ordinals: string;
  /** Its tokens sorted, joined by spaces: the same words in any order. */
  wordSet: string;
  /** The name keys of the aliases. */
  aliasKeys: string[];
}

export function namedNode(key: string, aliasKeys: string[]): NamedNode {
  const tokens = tokensOf(key);
  return { key, tokens, ordinals: ordinalsOf(tokens), wordSet: [...tokens].sort().join(' '), aliasKeys };
}

export function tokensOf(key: string): string[] {
  return key.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Numbers and roman numerals in a name: "World War I" and "World War II" are two wars, "Apollo 11" and "Apollo 12" two flights. */
function ordinalsOf(tokens: string[]): string {
  // A lone letter is a numeral only at the end ("Henry V"); before a name it is an initial ("V. Woolf").
  const isNumeral = (token: string, index: number) =>
    /\d/.test(token) || (romanNumeral.test(token) && (token.length > 1 || index === tokens.length - 1));
  return tokens.filter(isNumeral).join(' ');
}

function initialsOf(tokens: string[]): string {
  return tokens
    .filter((token) => !connectives.has(token))
    .map((token) => token[0])
    .join('');
}

/**
 * The blocks a name falls in: its whole key, each token, the first letters of each long token (a typo near
 * the end of a word) and the last letters (a typo near its start), the initials of a name of several words
 * (an acronym's block), the sorted first and the sorted last three letters of its words, and its last word
 * after the initials of the others ("J. Smith", "John Smith").
 */
/** The blocks of abbreviated first names: only pairs with an abbreviated name in them are worth comparing. */
export const abbreviationBlock = 'a:';

/** Whether a name has a word of one letter: "J. Smith". */
export function hasInitial(node: NamedNode): boolean {
  return node.tokens.some((token) => token.length === 1);
}

export function blockKeys(key: string): string[] {
  const tokens = tokensOf(key);
  const keys = new Set([`k:${key}`]);
  for (const token of tokens) {
    if (token.length >= 2 && !connectives.has(token)) keys.add(`t:${token}`);
    if (token.length >= prefixFrom) {
      keys.add(`p:${token.slice(0, prefixLength)}`);
      keys.add(`e:${token.slice(-prefixLength)}`);
    }
  }
  const initials = initialsOf(tokens);
  if (initials.length >= 2) keys.add(`t:${initials}`);
  if (tokens.length >= 2) {
    // Common words make big blocks that are skipped; these keys still meet a typo and an abbreviated first name.
    keys.add(
      `s:${tokens
        .map((token) => token.slice(0, 3))
        .sort()
        .join(' ')}`,
    );
    keys.add(`${abbreviationBlock}${initialsOf(tokens.slice(0, -1))} ${tokens.at(-1)}`);
    keys.add(
      `e:${tokens
        .map((token) => token.slice(-3))
        .sort()
        .join(' ')}`,
    );
  }
  return [...keys];
}

export interface NameEvidence {
  kind: 'name_key' | 'alias' | 'near_name';
  detail: string;
  weight: number;
}

/** Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/** Edits a word of this length may take and still be the same word misspelt: none below five letters. */
function typoBudget(length: number): number {
  if (length < 5) return 0;
  return length < 10 ? 1 : 2;
}

/** The edits between two names that differ in one word only, a misspelling of it; null when they differ otherwise. */
function misspelling(a: string[], b: string[]): number | null {
  if (a.length !== b.length) return null;
  const differing = a.flatMap((token, index) => (token === b[index] ? [] : [index]));
  if (differing.length !== 1) return null;
  const [x, y] = [a[differing[0]], b[differing[0]]];
  const budget = typoBudget(Math.min(x.length, y.length));
  if (!budget || Math.abs(x.length - y.length) > budget) return null;
  // A single word grown by a letter at either end is another word: Prussia, Russia; Johann, Johanna.
  if (a.length === 1 && x.length !== y.length && (x.includes(y) || y.includes(x))) return null;
  const distance = editDistance(x, y);
  if (distance > budget) return null;
  // Below ten letters one letter changed is as often another name (Jon, Jan; Hollywood, Bollywood) as a
  // typo; a swap or a letter missing or doubled is a typo.
  const substituted = x.length === y.length && [...x].sort().join('') !== [...y].sort().join('');
  return x.length < 10 && substituted ? null : distance;
}

/** Whether every token of `short` is a token of `long`, or the initial of one in the same place. */
function abbreviates(short: string[], long: string[]): boolean {
  if (short.length !== long.length) return false;
  let full = 0;
  for (let index = 0; index < short.length; index += 1) {
    if (short[index] === long[index]) full += 1;
    else if (short[index].length !== 1 || long[index][0] !== short[index]) return false;
  }
  return full >= 1 && full < short.length;
}

const unborneAlias = 0.3;
const unborneSharedAlias = 0.2;

/** The weight of an alias finding once something else (shared neighbours) bears it out. */
export function borneAliasWeight(weight: number): number {
  if (weight === unborneAlias) return 0.8;
  return weight === unborneSharedAlias ? 0.6 : weight;
}

export const abbreviationDetail = 'one name abbreviates the other with initials';

/** What the names of two nodes say about their being one entity, strongest first; empty when nothing. */
export function nameEvidence(a: NamedNode, b: NamedNode, labels: [string, string]): NameEvidence[] {
  if (a.key === b.key) return [{ kind: 'name_key', detail: `same name key "${a.key}"`, weight: 0.85 }];
  const near = nearName(a, b);
  const found: NameEvidence[] = near ? [near] : [];
  // Extracted aliases are often wrong ("Paris" an alias of "France"): one the names themselves do not
  // bear out counts for less than one they do.
  const borne = near !== null && near.weight >= 0.45;
  const aliasOfB = b.aliasKeys.includes(a.key);
  if (aliasOfB || a.aliasKeys.includes(b.key)) {
    const [named, holder] = aliasOfB ? [labels[0], labels[1]] : [labels[1], labels[0]];
    found.unshift({
      kind: 'alias',
      detail: `"${named}" is an alias of "${holder}"`,
      weight: borne ? 0.8 : unborneAlias,
    });
    return found;
  }
  const sharedAlias = a.aliasKeys.find((alias) => b.aliasKeys.includes(alias));
  if (sharedAlias)
    found.unshift({
      kind: 'alias',
      detail: `both have the alias "${sharedAlias}"`,
      weight: borne ? 0.6 : unborneSharedAlias,
    });
  return found;
}

function nearName(a: NamedNode, b: NamedNode): NameEvidence | null {
  const [tokensA, tokensB] = [a.tokens, b.tokens];
  if (!tokensA.length || !tokensB.length || a.ordinals !== b.ordinals) return null;
  const [short, long] = tokensA.length <= tokensB.length ? [tokensA, tokensB] : [tokensB, tokensA];

  if (a.wordSet === b.wordSet) return { kind: 'near_name', detail: 'the same words in another order', weight: 0.7 };

  const typo = misspelling(tokensA, tokensB);
  if (typo !== null) {
    return {
      kind: 'near_name',
      detail: `one word ${typo} edit${typo === 1 ? '' : 's'} apart`,
      weight: typo === 1 ? 0.55 : 0.4,
    };
  }
  if (abbreviates(short, long) || abbreviates(long, short)) {
    return { kind: 'near_name', detail: abbreviationDetail, weight: 0.55 };
  }
  const joinedShort = short.join('');
  if (short.length === 1 && joinedShort.length >= 2 && joinedShort === initialsOf(long) && long.length >= 2) {
    return {
      kind: 'near_name',
      detail: `"${joinedShort.toUpperCase()}" is the initials of the other name`,
      weight: 0.45,
    };
  }
  if (headContained(short, long)) {
    const several = short.length >= 2;
    return {
      kind: 'near_name',
      detail: `every word of the shorter name is in the longer one`,
      weight: several ? 0.4 : 0.2,
    };
  }
  return null;
}

/**
 * Whether the shorter name is the longer one's head: its first and last words ("Janis Joplin", "Janis Lyn
 * Joplin"), its last word alone (a surname), or its words around a connective. Other names with a connective are titles and institutions, where a
 * contained name is another thing ("Duke of Saxe-Weimar", "Saxe-Weimar").
 */
function headContained(short: string[], long: string[]): boolean {
  const words = (tokens: string[]) =>
    tokens
      .filter((token) => !connectives.has(token))
      .sort()
      .join(' ');
  // The same words around a connective: "Oxford University", "University of Oxford".
  if (short.length >= 2 && words(short) === words(long)) return true;
  if ([...short, ...long].some((token) => connectives.has(token))) return false;
  if (short.some((token) => token.length < 3 || !long.includes(token))) return false;
  return short.length === 1 ? short[0] === long.at(-1) : short[0] === long[0] && short.at(-1) === long.at(-1);
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
