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
  /** The detected domain's score, capped at 1. */
  confidence: number;
  detected_domain: string;
  /** The pick is the fallback, or a domain that scored higher missed its own threshold. */
  low_confidence: boolean;
}

interface CompiledDetection {
  /** One regex over every lower-cased term (a character trie), or null for a domain with none. */
  keywords: RegExp | null;
  termWeights: Map<string, number>;
  patterns: { regex: RegExp; weight: number }[];
}

const compiled = new WeakMap<DomainDefinition, CompiledDetection>();

/**
 * Scores every domain against the samples: base + keyword, extension, doc type and pattern boosts.
 * A keyword term counts once however often it occurs, so longer documents do not inflate scores.
 */
export function detectDomain(input: DetectionInput, domains: DomainDefinition[]): DetectionProposal {
  const lowered = input.samples.map((sample) => sample.toLowerCase());
  const extension = extensionOf(input.filename);
  const docType = input.docType?.trim().toLowerCase() ?? '';

  const scored = domains.map((domain) => {
    const score =
      domain.name === fallbackDomain
        ? domain.detection.confidence.min_threshold
        : scoreDomain(domain, input.samples, lowered, extension, docType);
    const tier = domain.name === fallbackDomain ? 1 : score >= domain.detection.confidence.min_threshold ? 0 : 2;
    return { domain, score, tier };
  });
  scored.sort((a, b) => a.tier - b.tier || b.score - a.score || a.domain.name.localeCompare(b.domain.name));

  const detected = scored[0] as (typeof scored)[number] | undefined;
  const picked = detected?.tier === 0 ? detected : undefined;
  return {
    ranking: scored.map(({ domain, score }) => ({ domain: domain.name, score: round(score) })),
    confidence: round(Math.min(1, detected?.score ?? 0)),
    detected_domain: detected?.domain.name ?? fallbackDomain,
    low_confidence: !picked || scored.some(({ tier, score }) => tier === 2 && score > picked.score),
  };
}

function scoreDomain(
  domain: DomainDefinition,
  samples: string[],
  lowered: string[],
  extension: string,
  docType: string,
): number {
  const { confidence, file_extensions, doc_types } = domain.detection;
  const detection = compile(domain);
  let score = confidence.base_score;

  if (detection.keywords) {
    for (const term of wholeWordMatches(detection.keywords, lowered))
      score += confidence.per_keyword_boost * (detection.termWeights.get(term) ?? 0);
  }
  if (extension && file_extensions.includes(extension)) score += confidence.extension_boost;
  if (docType && doc_types.some((type) => type.toLowerCase() === docType)) score += confidence.doc_type_boost;
  const patternScore = () =>
    detection.patterns.reduce(
      (sum, pattern) => sum + patternHits(pattern.regex, samples) * confidence.pattern_boost * pattern.weight,
      0,
    );
  if (detection.patterns.length > 0)
    score += domain.builtin ? patternScore() : (withinTimeLimit(patternScore, customPatternBudgetMs) ?? 0);
  return score;
}

function patternHits(pattern: RegExp, samples: string[]): number {
  let hits = 0;
  for (const sample of samples) {
    if (hits >= patternHitCap) break;
    hits += boundedMatchCount(pattern, sample, patternHitCap - hits);
  }
  return hits;
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
    keywords:
      termWeights.size > 0 ? new RegExp(`${trieSource([...termWeights.keys()])}(?!${wordChar.source})`, 'gu') : null,
    termWeights,
    patterns: domain.detection.patterns.map((pattern) => ({
      regex: new RegExp(pattern.regex, 'gm'),
      weight: pattern.weight,
    })),
  };
  compiled.set(domain, result);
  return result;
}

const wordChar = /[\p{L}\p{N}_]/u;

/**
 * The distinct terms found in the samples. The regex ends each match at a word end; a match that does
 * not begin at a word start is skipped here (a lookbehind in the regex makes it several times slower).
 */
function wholeWordMatches(keywords: RegExp, samples: string[]): Set<string> {
  const found = new Set<string>();
  for (const sample of samples) {
    keywords.lastIndex = 0;
    for (let match = keywords.exec(sample); match; match = keywords.exec(sample)) {
      if (match.index > 0 && wordChar.test(sample[match.index - 1])) keywords.lastIndex = match.index + 1;
      else found.add(normaliseTerm(match[0]));
    }
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
