import { contentCategoriesOf } from '../extraction/index.ts';
import type { RetrievedPassage } from '../providers/index.ts';

/** Passages on either side whose text, with a sentence's, shows it belongs to a licence block. */
const BLOCK_RADIUS = 1;

/**
 * A citation of a numbered standard ending in its date, as a standards list writes them ("T. Ylonen
 * and C. Lonvick, The Secure Shell (SSH) Protocol Architecture, RFC 4251, January 2006.").
 */
const STANDARD_CITATION =
  /\b(?:RFC|STD|BCP|FIPS|ISO(?:\/IEC)?|IEEE(?: Std)?|ECMA-?)\s?\d{2,5}(?:[-.:]\d+)*,.{0,40}\b(?:19|20)\d{2}\.?$/;

/**
 * The passages (one sentence each, in reading order) marked when they are boilerplate: an entry of a
 * reference list or a table of contents on its own, or a sentence that reads as a licence together with
 * its neighbours (legal wording is counted, and one clause of it alone is no licence). The content
 * filter's categories judge, as they do for extraction.
 */
export function markBoilerplate(passages: readonly RetrievedPassage[]): RetrievedPassage[] {
  const texts = passages.map((passage) => passage.text);
  return passages.map((passage, index) => {
    const block = texts.slice(Math.max(0, index - BLOCK_RADIUS), index + BLOCK_RADIUS + 1).join('\n');
    const boilerplate =
      STANDARD_CITATION.test(passage.text) ||
      contentCategoriesOf(passage.text, ['bibliography', 'toc']).length > 0 ||
      contentCategoriesOf(block, ['legal']).length > 0;
    return boilerplate ? { ...passage, boilerplate } : passage;
  });
}
