/**
 * Step 2: entities that are parts of the document, not things it is about ("Chapter 3", "Figure 2",
 * "Table 1", "Appendix B"), by type or by name.
 *
 * Reference forms that also name real things ("Section 230", "Article 5", "Schedule B", "Part II") are
 * dropped by name only when the model gave them no specific type of the domain: a legal domain's
 * Statute "Section 230" stays, a generic "Section 4.2" goes. A domain that has a template named like a
 * structural type (a "Table" for furniture) keeps entities of that type.
 */
import type { DomainDefinition } from '../../sources/index.ts';
import { keepEntities, type StepResult, type WorkEntity } from './model.ts';
import { typeKey, type TypeResolver } from './entity-types.ts';

const STRUCTURAL_TYPES: ReadonlySet<string> = new Set([
  'chapter',
  'section',
  'subsection',
  'sub section',
  'figure',
  'table',
  'page',
  'appendix',
  'footnote',
  'endnote',
  'paragraph',
  'heading',
  'equation',
  'listing',
  'caption',
  'exhibit',
  'annex',
  'toc',
  'table of contents',
  'document section',
  'document part',
  'section heading',
  'figure caption',
  'page number',
  'chart',
  'diagram',
  'illustration',
]);

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty';
/** A number of a part: 3, 4.2, 2a, 10-1, IV, iv (short forms only, so "mix" is no numeral), or a number word. */
const PART_NUMBER = `(?:\\d+(?:[.\\-–]\\d+)*[a-zA-Z]?|[IVXLCDM]+|(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3})|(?:${NUMBER_WORDS}))`;
/** An optional title after the number: "Chapter 3: The Early Years", "Figure 2 – Map of the coast", "Chapter 3 The Storm". */
const TITLE_TAIL = '(?:\\s*[:.\\-–—]\\s*\\S.*|\\s+\\p{Lu}.*|\\s*)';
/** A lettered part ("Appendix B"); a full stop after the letter reads as an initial ("P. J. Morgan"), so none here. */
const LETTER_PART = '[A-Z](?:\\s*[:\\-–—]\\s*\\S.*|\\s*)';

const always = String.raw`chapter|chap\.?|ch\.|figure|fig\.?|table|tbl\.|tab\.|page|pages|appendix|app\.|footnote|endnote|equation|eq\.|eqn\.?|listing|plate|chart|diagram|illustration|slide`;
const ambiguous = String.raw`section|sect?\.|§+|¶|part|pt\.|article|art\.|schedule|exhibit|annex|paragraph|para\.|volume|vol\.|book|note`;

// The keyword is matched in any case; the number is matched as written, so Roman numerals stay upper case.
const ALWAYS_NAME = new RegExp(`^(?:${always})\\s*(?=\\S)(.*)$`, 'i');
const AMBIGUOUS_NAME = new RegExp(`^(?:${ambiguous})\\s*(?=\\S)(.*)$`, 'i');
const NUMBERED = new RegExp(`^(?:${PART_NUMBER}${TITLE_TAIL}|${LETTER_PART})$`, 'u');
const NUMBERED_ANY_CASE = new RegExp(`^(?:${NUMBER_WORDS})${TITLE_TAIL}$`, 'iu');
/** Parts named by a word alone. */
const PART_NAMES =
  /^(?:table of contents|contents|index|bibliography|references|glossary|preface|foreword|introduction|conclusions?|abstract|acknowledg(?:e)?ments|epilogue|prologue|summary)$/i;

function numberedPart(pattern: RegExp, name: string): boolean {
  const match = pattern.exec(name);
  return match !== null && (NUMBERED.test(match[1]) || NUMBERED_ANY_CASE.test(match[1]));
}

export class StructuralFilter {
  private readonly domainTypes: Set<string>;

  constructor(
    domain: DomainDefinition,
    private readonly types: TypeResolver,
  ) {
    this.domainTypes = new Set(domain.templates.node_templates.map((template) => typeKey(template.name)));
  }

  isStructural(entity: Pick<WorkEntity, 'name' | 'type'>): boolean {
    const type = typeKey(entity.type);
    const singularType = type.replace(/s$/, '');
    if (
      (STRUCTURAL_TYPES.has(type) || STRUCTURAL_TYPES.has(singularType)) &&
      !this.domainTypes.has(type) &&
      !this.domainTypes.has(singularType)
    )
      return true;
    const name = entity.name.trim();
    if (numberedPart(ALWAYS_NAME, name)) return true;
    // A specific type of the domain vouches for a reference form ("Section 230" as a Statute).
    const vouched = !this.types.isGeneric(entity.type) && this.types.template(entity.type) !== null;
    return !vouched && (numberedPart(AMBIGUOUS_NAME, name) || PART_NAMES.test(name));
  }

  apply(entities: WorkEntity[]): { step: StepResult; dropped: number } {
    const step = keepEntities(entities, (entity) => !this.isStructural(entity));
    return { step, dropped: entities.length - step.entities.length };
  }
}
