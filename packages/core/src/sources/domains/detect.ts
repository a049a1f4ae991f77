import type { DomainDefinition } from './schema.ts';
import { boundedMatchCount, withinTimeLimit } from './regex-safety.ts';

/**
 * The domain chosen when no other reaches its threshold. Its threshold is its score: the bar a domain
 * must clear to rank above it.
 */
export const fallbackDomain = 'generic';
/** Most hits one detection pattern contributes, so a pattern that matches every line cannot swamp the score. */
const patternHitCap = 3;
/** Time the patterns of one custom (untrusted) domain may take per detection; past it they add nothing. */
const customPatternBudgetMs = 50;
/**
 * Share of the sampled text a domain's cues must be spread over to be picked: a licence block closing a
 * history of a programming language scores high on legal terms, but covers too little of it to make it Legal.
 */
export const minCoverage = 0.5;

export interface DetectionInput {
  samples: string[];
  filename: string;
  /** A loader format or a document type from metadata; matched case-insensitively against `doc_types`. */
  docType?: string | null;
}

/** Stored on the source as `detection_proposal`. */
export interface DetectionProposal {
  /**
   * Every domain, best first: those that reach their threshold by score, then the fallback (scored at
   * its threshold, the bar the others must clear), then those that do not. The first is the detected one.
   */
  ranking: { domain: string; score: number }[];
  /** The detected domain's score, capped at 1, times the share of the text its cues cover. */
  confidence: number;
  detected_domain: string;
  /** The pick is the fallback, or a domain that scored higher missed its own threshold or coverage. */
  low_confidence: boolean;
  /** Why the detection is not confident, in one sentence a user reads; only when `low_confidence`. */
  reason?: string;
}

interface CompiledDetection {
  /** Each normalised term with its highest weight. */
  termWeights: Map<string, number>;
  patterns: { regex: RegExp; weight: number }[];
}

const compiled = new WeakMap<DomainDefinition, CompiledDetection>();

/**
 * Scores every domain against the samples: base + keyword, extension, doc type and pattern boosts.
 * A keyword term counts once however often it occurs, so longer documents do not inflate scores.
 */
export function detectDomain(input: DetectionInput, domains: DomainDefinition[]): DetectionProposal {
  const extension = extensionOf(input.filename);
  const docType = input.docType?.trim().toLowerCase() ?? '';
  const blocks = textBlocks(input.samples);
  const keywords = keywordsOf(domains);
  const foundPerBlock = blocks.lowered.map((block) => keywordMatches(keywords, block));

  const scored = domains.map((domain) => {
    if (domain.name === fallbackDomain) {
      const score = domain.detection.confidence.min_threshold;
      return { domain, score, coverage: 1, tier: 1 };
    }
    const cues = blockCues(domain, blocks, foundPerBlock);
    const score = scoreDomain(domain, cues, extension, docType);
    const coverage = score >= domain.detection.confidence.min_threshold ? coverageOf(domain, blocks, cues) : 0;
    const tier = score >= domain.detection.confidence.min_threshold && coverage >= minCoverage ? 0 : 2;
    return { domain, score, coverage, tier };
  });
  scored.sort((a, b) => a.tier - b.tier || b.score - a.score || a.domain.name.localeCompare(b.domain.name));

  const detected = scored[0] as (typeof scored)[number] | undefined;
  const picked = detected?.tier === 0 ? detected : undefined;
  const outscoring = scored.find(({ tier, score }) => tier === 2 && score > (picked?.score ?? 0));
  const proposal: DetectionProposal = {
    ranking: scored.map(({ domain, score }) => ({ domain: domain.name, score: round(score) })),
    confidence: round(Math.min(1, detected?.score ?? 0) * (detected?.coverage ?? 1)),
    detected_domain: detected?.domain.name ?? fallbackDomain,
    low_confidence: !picked || outscoring !== undefined,
  };
  if (!proposal.low_confidence) return proposal;
  return { ...proposal, reason: lowConfidenceReason(proposal.detected_domain, outscoring) };
}

/** The reason a detection is not confident: the best scorer missed its threshold, or its cues sit in too little of the text. */
function lowConfidenceReason(
  detected: string,
  outscoring: { domain: DomainDefinition; score: number; coverage: number } | undefined,
): string {
  const chosen = detected === fallbackDomain ? 'the generic domain is used' : `${detected} is used`;
  if (!outscoring) return `No specific domain has enough evidence in the text: ${chosen}.`;
  const { domain, score, coverage } = outscoring;
  if (score < domain.detection.confidence.min_threshold)
    return `No domain has enough evidence in the text (${domain.name} comes closest, ${round(score)} of the ${domain.detection.confidence.min_threshold} needed): ${chosen}.`;
  return `The ${domain.name} cues cover only ${Math.round(coverage * 100)}% of the text, one part of it rather than the whole document: ${chosen}.`;
}

/** What a domain's cues found in each block of the text, in block order; read once, by score and coverage. */
interface BlockCues {
  /** The distinct keyword terms in each block. */
  terms: Set<string>[];
  /** Per pattern, its matches in each block (at most the hit cap); null when a custom domain's patterns ran out of time. */
  patternHits: number[][] | null;
}

/** `foundPerBlock`: every domain's terms found in each block; the domain keeps its own. */
function blockCues(domain: DomainDefinition, blocks: Blocks, foundPerBlock: Set<string>[]): BlockCues {
  const { termWeights, patterns } = compile(domain);
  const terms =
    termWeights.size > 0
      ? foundPerBlock.map((found) => new Set([...found].filter((term) => termWeights.has(term))))
      : [];
  const hits = () =>
    patterns.map(({ regex }) => blocks.text.map((block) => boundedMatchCount(regex, block, patternHitCap)));
  const patternHits = domain.builtin ? hits() : withinTimeLimit(hits, customPatternBudgetMs);
  return { terms, patternHits };
}

function scoreDomain(domain: DomainDefinition, cues: BlockCues, extension: string, docType: string): number {
  const { confidence, file_extensions, doc_types } = domain.detection;
  const detection = compile(domain);
  let score = confidence.base_score;

  for (const term of new Set(cues.terms.flatMap((found) => [...found])))
    score += confidence.per_keyword_boost * (detection.termWeights.get(term) ?? 0);
  if (extension && file_extensions.includes(extension)) score += confidence.extension_boost;
  if (docType && doc_types.some((type) => type.toLowerCase() === docType)) score += confidence.doc_type_boost;
  cues.patternHits?.forEach((perBlock, index) => {
    const hits = Math.min(
      patternHitCap,
      perBlock.reduce((sum, count) => sum + count, 0),
    );
    score += hits * confidence.pattern_boost * detection.patterns[index].weight;
  });
  return score;
}

/** Longest stretch counted as one block for coverage; a longer paragraph is cut at line ends. */
const blockChars = 800;

/** The samples' paragraphs (split at blank lines, long ones at line ends), in order. */
function textBlocks(samples: string[]): Blocks {
  const text: string[] = [];
  for (const paragraph of samples.flatMap((sample) => sample.split(/\n\s*\n/))) {
    let block = '';
    for (const line of paragraph.split('\n')) {
      if (block && block.length + line.length > blockChars) text.push(block);
      block = block && block.length + line.length <= blockChars ? `${block}\n${line}` : line;
    }
    if (block.trim()) text.push(block);
  }
  const offsets = [0];
  for (const block of text) offsets.push(offsets[offsets.length - 1] + block.length);
  return { text, lowered: text.map((block) => block.toLowerCase()), offsets };
}

/** Distinct keyword terms a block needs to count as a cue for coverage (or one pattern match). */
const blockCueTerms = 2;

interface Blocks {
  text: string[];
  lowered: string[];
  /** Where each block starts in the joined text; the last entry is the total length. */
  offsets: number[];
}

/**
 * The share of the text, by length, from the first block with the domain's cues to the last: cues spread
 * over a document span it whole, a closing licence block only its end. A block is cued by two distinct
 * keyword terms (one for a domain with a single term) or a pattern match. A domain with neither
 * (detected by extension or doc type alone) covers the whole text.
 */
function coverageOf(domain: DomainDefinition, blocks: Blocks, cues: BlockCues): number {
  const detection = compile(domain);
  const total = blocks.offsets[blocks.text.length];
  if ((detection.termWeights.size === 0 && detection.patterns.length === 0) || total === 0) return 1;
  const needed = Math.min(blockCueTerms, detection.termWeights.size);
  const cued = (index: number) =>
    (cues.terms[index]?.size ?? 0) >= needed || (cues.patternHits?.some((perBlock) => perBlock[index] > 0) ?? false);
  let first = 0;
  while (first < blocks.text.length && !cued(first)) first += 1;
  if (first === blocks.text.length) return 0;
  let last = blocks.text.length - 1;
  while (!cued(last)) last -= 1;
  return (blocks.offsets[last + 1] - blocks.offsets[first]) / total;
}

function compile(domain: DomainDefinition): CompiledDetection {
  const cached = compiled.get(domain);
  if (cached) return cached;
  const termWeights = new Map<string, number>();
  for (const group of domain.detection.keywords) {
    for (const term of group.terms) {
      const key = normaliseTerm(term);
      termWeights.set(key, Math.max(termWeights.get(key) ?? 0, group.weight));
    }
  }
  const result: CompiledDetection = {
    termWeights,
    patterns: domain.detection.patterns.map((pattern) => ({
      regex: new RegExp(pattern.regex, 'gm'),
      weight: pattern.weight,
    })),
  };
  compiled.set(domain, result);
  return result;
}

/**
 * Every domain's terms in one regex, so a block is read once for all domains, not once per domain. The
 * regex takes the longest term at a place; `alsoFound` gives back, for each term, the shorter terms it
 * begins with that end at a word end there ("security" in "security advisory"), which a domain with
 * only the shorter one would have found.
 */
interface CombinedKeywords {
  regex: RegExp | null;
  alsoFound: Map<string, string[]>;
}

/** The last domain list's keywords: detection runs over the same built-in and custom domains again and again. */
let lastKeywords: { domains: readonly DomainDefinition[]; keywords: CombinedKeywords } | null = null;

function keywordsOf(domains: readonly DomainDefinition[]): CombinedKeywords {
  const same =
    lastKeywords?.domains.length === domains.length &&
    lastKeywords.domains.every((domain, index) => domain === domains[index]);
  if (same && lastKeywords) return lastKeywords.keywords;
  const terms = new Set(domains.flatMap((domain) => [...compile(domain).termWeights.keys()]));
  const alsoFound = new Map<string, string[]>();
  for (const term of terms) {
    const prefixes = [...term]
      .map((char, at) => (at > 0 && !wordChar.test(char) ? term.slice(0, at) : ''))
      .filter((prefix) => prefix && terms.has(prefix));
    if (prefixes.length > 0) alsoFound.set(term, prefixes);
  }
  const keywords = {
    regex: terms.size > 0 ? new RegExp(`${trieSource([...terms])}(?!${wordChar.source})`, 'gu') : null,
    alsoFound,
  };
  lastKeywords = { domains: [...domains], keywords };
  return keywords;
}

/** Every domain's terms found in a lower-cased block. */
function keywordMatches({ regex, alsoFound }: CombinedKeywords, block: string): Set<string> {
  if (!regex) return new Set();
  const found = wholeWordMatches(regex, block);
  for (const term of [...found]) for (const prefix of alsoFound.get(term) ?? []) found.add(prefix);
  return found;
}

const wordChar = /[\p{L}\p{N}_]/u;

/**
 * The distinct terms found in the text. The regex ends each match at a word end; a match that does
 * not begin at a word start is skipped here (a lookbehind in the regex makes it several times slower).
 */
function wholeWordMatches(keywords: RegExp, text: string): Set<string> {
  const found = new Set<string>();
  keywords.lastIndex = 0;
  for (let match = keywords.exec(text); match; match = keywords.exec(text)) {
    if (match.index > 0 && wordChar.test(text[match.index - 1])) keywords.lastIndex = match.index + 1;
    else found.add(normaliseTerm(match[0]));
  }
  return found;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  terminal: boolean;
}

/**
 * The terms as one regex that branches character by character (`ab(?:c|d)`), which the engine
 * scans far faster than a flat alternation; a space matches any run of whitespace.
 */
function trieSource(terms: string[]): string {
  const root: TrieNode = { children: new Map(), terminal: false };
  for (const term of terms) {
    let node = root;
    for (const char of term) {
      let child = node.children.get(char);
      if (!child) node.children.set(char, (child = { children: new Map(), terminal: false }));
      node = child;
    }
    node.terminal = true;
  }
  const emit = (node: TrieNode): string => {
    const branches = [...node.children].map(
      ([char, child]) => (char === ' ' ? '\\s+' : escapeRegex(char)) + emit(child),
    );
    if (branches.length === 0) return '';
    const body = branches.length === 1 ? branches[0] : `(?:${branches.join('|')})`;
    return node.terminal ? `(?:${body})?` : body; // greedy: the longest term is tried first
  };
  return emit(root);
}

/** A text read by stretches: a string, or a document's normalised segments read as one text. */
export interface TextStretches {
  readonly length: number;
  slice(start: number, end: number): string;
}

/**
 * Up to `count` windows of about `chars` characters spread evenly over the text (first and last
 * included), moved to word boundaries; a short text is covered whole, a blank one gives none.
 */
export function detectionSamples(text: TextStretches, count = 5, chars = 2000): string[] {
  const windows = Math.max(1, Math.min(count, Math.ceil(text.length / chars)));
  const step = windows > 1 ? (text.length - chars) / (windows - 1) : 0;
  const samples: string[] = [];
  for (let index = 0; index < windows; index += 1) {
    const start = wordStart(text, Math.round(index * step));
    const end = wordEnd(text, Math.min(text.length, Math.round(index * step) + chars));
    const sample = text.slice(start, end).trim();
    if (sample) samples.push(sample);
  }
  return samples;
}

/** How far a window edge may move to reach whitespace. */
const snapChars = 40;

function wordStart(text: TextStretches, at: number): number {
  if (at === 0 || /\s/.test(text.slice(at - 1, at))) return at;
  const space = text.slice(at, at + snapChars).search(/\s/);
  return space === -1 ? at : at + space + 1;
}

function wordEnd(text: TextStretches, at: number): number {
  if (at >= text.length || /\s/.test(text.slice(at, at + 1))) return at;
  const space = text.slice(Math.max(0, at - snapChars), at).search(/\s\S*$/);
  return space === -1 ? at : Math.max(0, at - snapChars) + space;
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 && dot > filename.lastIndexOf('/') ? filename.slice(dot).toLowerCase() : '';
}

function normaliseTerm(term: string): string {
  return term.toLowerCase().trim().replace(/\s+/g, ' ');
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
