/**
 * English function words: the question and grammar words a typed question is made of ("how do I …",
 * "who was the …"). Keyword search requires every term it keeps, so a passage that answers "how do I
 * unpack a tarball" without the words "how", "do" and "I" would be left out; and where such a word is
 * rare enough to count (a small collection) it ranks passages by phrasing rather than subject.
 */
const functionWords = new Set(
  (
    'a an the and or but nor of to in on at by for with from as into onto about than then so if ' +
    'is are was were be been being am do does did done doing have has had having ' +
    'i me my mine we us our you your he him his she her it its they them their this that these those ' +
    'what which who whom whose when where why how ' +
    'can could would should will shall may might must there here'
  ).split(' '),
);

/** Whether a quoted term (as `ftsQuery` makes them) is a single function word. */
export const isFunctionWord = (term: string) => functionWords.has(term.replace(/^"|"$/gu, '').toLowerCase());

/** The terms that say what a query is about: all but its function words, or all of them when nothing else is left. */
export function contentTerms(terms: readonly string[]): string[] {
  const content = terms.filter((term) => !isFunctionWord(term));
  return content.length ? content : [...terms];
}
