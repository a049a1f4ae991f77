/**
 * The PostgreSQL `to_tsquery` text of a MATCH expression `ftsQuery` made: quoted terms joined by spaces
 * (all required) or by ` OR ` (any suffices), each a phrase or a word with a trailing `*` (a prefix).
 * Each term goes to `to_tsquery` single-quoted, so PostgreSQL splits and stems it exactly as it split and
 * stemmed the indexed text, and a phrase's words must follow one another (`<->`); `weight` keeps every
 * word to the column of that weight (the node label is `A`). A term holding only stop words drops out.
 */
export function tsqueryOf(expression: string, weight: '' | 'A' = ''): string {
  const any = /"\s+OR\s+"/u.test(expression);
  return [...expression.matchAll(/"([^"]*)"(\*?)/gu)]
    .map(([, text, star]) => {
      const marks = `${star}${weight}`;
      return `'${text.replace(/['\\]/gu, (character) => character + character)}'${marks ? `:${marks}` : ''}`;
    })
    .join(any ? ' | ' : ' & ');
}
