/**
 * Pre-extraction content filtering and the filtering-mode presets. Filtering
 * only makes the copies sent to the model: stored chunks stay whole for search and chat.
 *
 * A `line_ratio` category strips its matching lines once they make up enough of the chunk's lines;
 * a `count` category drops the whole copy once its hits reach a threshold. The mode moves both
 * cut-offs: `unfiltered` touches nothing, `maximum` strips any matching line.
 */
import { contentCategories, type ContentCategory, type FilteringMode } from '../sources/index.ts';

type Detector =
  | { mode: 'line_ratio'; matches: (line: string) => boolean }
  | { mode: 'count'; hits: (content: string, lines: readonly string[]) => number; threshold: number };

/** Lines longer than this are prose paragraphs, never a category's line. */
const MAX_CATEGORY_LINE = 300;
const MIN_STRIPPED_LENGTH = 100;

type LineTest = RegExp | ((line: string) => boolean);
const anyOf =
  (...tests: LineTest[]) =>
  (line: string) =>
    tests.some((test) => (test instanceof RegExp ? test.test(line) : test(line)));
const countOf = (pattern: RegExp) => (content: string) => content.match(pattern)?.length ?? 0;
const linesMatching = (test: (line: string) => boolean) => (_content: string, lines: readonly string[]) =>
  lines.filter((line) => line.length <= MAX_CATEGORY_LINE && test(line)).length;

const CODE_SYMBOLS = /[{}()[\];=<>&|$]/g;
const MATH_SYMBOLS = /[\d=+\-*/^_<>≤≥≈≠±×÷∑∏∫√∂∞∆∇πθλμσωαβγδ(){}[\]|\\$]/g;
const TAGS_AND_ENTITIES = /<\/?[a-z][a-z0-9]*(?:\s[^<>]{0,200})?\/?>|&(?:nbsp|amp|lt|gt|quot|#\d{1,5});/gi;

function symbolShare(line: string, symbols: RegExp): number {
  const visible = line.replace(/\s+/g, '');
  return visible.length === 0 ? 0 : (visible.match(symbols)?.length ?? 0) / visible.length;
}

function isNumericRow(line: string): boolean {
  const tokens = line.trim().split(/\s+/);
  const numeric = tokens.filter((token) => /^[-+(]?[$€£]?\d[\d,.:/]*%?\)?$/.test(token)).length;
  return numeric >= 3 && numeric / tokens.length >= 0.5;
}

const SHORT_LIST_ITEM = /^\s*(?:[-*+•·▪●◦‣]|\d{1,3}[.)]|[a-z][.)])\s+\S.{0,60}$/;

function bulkListHits(_content: string, lines: readonly string[]): number {
  let hits = 0;
  for (const line of lines) {
    if (SHORT_LIST_ITEM.test(line) && !/[.!?]$/.test(line.trim())) hits++;
    // A line that is nothing but a long run of short comma-separated items (tags, names, keywords).
    const items = line.split(/[,;]\s*/);
    if (items.length >= 10 && line.length / items.length < 25 && !/[.!?]\s/.test(line)) hits += items.length;
  }
  return hits;
}

const DETECTORS: Record<ContentCategory, Detector> = {
  toc: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\S.{0,150}?(?:\.{3,}|(?:\. ){3,}|…{2,}|·{3,}|_{3,}|\t)\s*(?:\d{1,4}|[ivxlc]{1,6})$/,
      /^(?:table of )?contents$/i,
      /^(?:chapter|part|section|appendix)?\s*(?:\d+|[IVX]+)(?:\.\d+)*\.?\s+\S.{0,100}?\s\d{1,4}$/i,
    ),
  },
  changelog: {
    mode: 'line_ratio',
    matches: anyOf(
      /^#{0,4}\s*\[?v?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\]?(?:\s*[-–—(]\s*\d{4}-\d{2}-\d{2}\)?)?$/,
      /^\s*[-*]\s*(?:added|fixed|changed|removed|deprecated|security|bump(?:ed)?|update[ds]?|improved|refactor(?:ed)?)\b/i,
      /^\s*[-*]?\s*(?:feat|fix|chore|docs|refactor|perf|test|build|ci)(?:\([^)]{0,40}\))?!?:\s/,
      /^#{0,4}\s*(?:change ?log|release notes|what'?s new)\b/i,
      /^#{1,4}\s*(?:added|fixed|changed|removed|deprecated|security)$/i,
    ),
  },
  legal: {
    mode: 'count',
    threshold: 3,
    hits: countOf(
      /\b(?:all rights reserved|copyright (?:©|\(c\)|\d{4})|licen[cs]ed under|without warranty|merchantability|fitness for a particular purpose|terms (?:and|&) conditions|terms of (?:use|service)|privacy policy|limitation of liability|liable for|indemnif\w*|hereinafter|pursuant to|governing law|disclaimer|no part of this (?:publication|book)|isbn)\b/gi,
    ),
  },
  bibliography: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\s*\[\d{1,3}\]\s+\S/,
      /^\s*\d{1,3}\.\s+\p{Lu}[\p{L}'-]+,\s+(?:\p{Lu}\.\s*)+/u,
      /^\p{Lu}[\p{L}'-]+,\s+(?:\p{Lu}\.\s*){1,3}.{0,200}\(?(?:19|20)\d{2}[a-z]?\)?/u,
      /\bdoi(?::|\.org\/)\s*10\.\d{4,}/i,
      /\barxiv:\s*\d{4}\.\d{4,5}/i,
      /^(?:references|bibliography|works cited|further reading|notes and references)$/i,
      /\bpp?\.\s*\d+\s*[-–]\s*\d+.{0,80}\b(?:19|20)\d{2}\b|\b(?:19|20)\d{2}\b.{0,80}\bpp?\.\s*\d+\s*[-–]\s*\d+/,
      /\bet al\.,?\s*\(?(?:19|20)\d{2}/,
      /\bRetrieved (?:on )?(?:\d{1,2} \p{L}+|\p{L}+ \d{1,2},?) \d{4}/u,
    ),
  },
  acknowledgments: {
    mode: 'count',
    threshold: 3,
    hits: countOf(
      /\b(?:acknowledge?ments?|we (?:would like to )?thank|(?:i am|we are|i'm|we're) (?:deeply |very |most )?grateful|grateful to|special thanks|thanks (?:are due |go )?to|funded by|supported (?:in part )?by (?:the |a |an )?(?:[\w-]+ ){0,4}(?:grant|foundation|fellowship|council|award)|grant (?:no\.?|number|#))\b/gi,
    ),
  },
  boilerplate: {
    mode: 'line_ratio',
    matches: anyOf(
      /^(?:home|menu|search|skip to (?:main )?content|back to top|top of page|next(?: page)?|previous(?: page)?|share|print|subscribe|sign (?:in|up|out)|log ?(?:in|out)|register|contact us|about us|follow us(?: on \w+)?|read more|continue reading|load more|see all|view all)\W{0,3}$/i,
      /^.{0,120}\ball rights reserved\b.{0,60}$/i,
      /^(?:©|\(c\)|copyright\s+(?:©|\(c\)|\d{4}))/i,
      /^.{0,80}\bclick here\b.{0,80}$/i,
      /^this (?:page|article) (?:was )?last (?:edited|modified|updated)/i,
      /^(?:powered|designed|built) (?:by|with)\s/i,
      /^(?:terms(?: of (?:use|service))?|privacy(?: policy)?|cookies?(?: policy| settings)?|sitemap|accessibility)(?:\s*[|·•]\s*[\w ]{1,40}){0,10}$/i,
    ),
  },
  metadata: {
    mode: 'line_ratio',
    matches: anyOf(
      /^(?:title|authors?|date|published|publication date|publisher|isbn|issn|doi|keywords|tags|categories|category|language|created|modified|last (?:updated|modified)|version|edition|pages|volume|issue|subject|source|url|file ?name|format|file size|license|posted (?:on|by)|filed under)\s*[:=]\s*\S/i,
      /^(?:posted|published|updated|last updated) (?:on )?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i,
      /^by\s+\p{Lu}[\p{L}'-]*(?:\s+(?:\p{Lu}\.|\p{Lu}[\p{L}'-]*)){0,3}$/u,
    ),
  },
  code_blocks: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\s*(?:```|~~~)/,
      /^\s*(?:def \w+\s*\(|class \w+\s*[:({]|function\s*\w*\s*\(|import\s+[\w{*]|from\s+[\w.]+\s+import\b|(?:const|let|var)\s+\w+\s*=|return\b.{0,200};$|(?:public|private|protected|static)\s+\w|#include\s*[<"]|package\s+[\w.]+;|using\s+[\w.]+;|fn\s+\w+\s*[(<]|func\s+\w+\s*\(|(?:if|for|while|switch)\s*\(.{0,200}\)\s*\{?$|\}\s*else\b|try\s*\{|catch\s*\()/,
      /^\s*(?:\/\/|\/\*|\*\/|#!|<!--)/,
      /^\s*(?:\$|>>>|PS>)\s+\S/,
      /^\s*[{}()[\];,]+$/,
      (line) => line.trim().length >= 8 && symbolShare(line, CODE_SYMBOLS) >= 0.2 && /[;{}]|=>/.test(line),
    ),
  },
  data_tables: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\s*\|.*\|\s*$/,
      /^\s*:?-{3,}:?(?:\s*\|\s*:?-{3,}:?)+\s*$/,
      (line) => line.split('\t').length >= 3,
      isNumericRow,
      /\S {3,}\S.* {3,}\S/,
    ),
  },
  math: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\s*(?:\$\$|\\\[|\\\]|\\begin\{|\\end\{)/,
      (line) => line.trim().length >= 3 && /[=<>≤≥≈≠∑∫√^_\\]/.test(line) && symbolShare(line, MATH_SYMBOLS) >= 0.4,
      (line) =>
        (line.match(
          /\\(?:frac|sum|int|prod|sqrt|alpha|beta|gamma|delta|theta|lambda|mu|sigma|omega|pi|partial|infty|cdot|times|leq|geq|neq|approx|mathbb|mathrm|mathcal)\b/g,
        )?.length ?? 0) >= 2,
    ),
  },
  api_tables: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\s*(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\/\S*/,
      /^\s*\|?\s*`?[\w.[\]-]+`?\s*\|\s*`?(?:string|str|integer|int|int32|int64|boolean|bool|number|float|double|object|array|list|dict|null|uuid|date-?time|enum)\b/i,
      /^\s*`?[\w.[\]-]+`?\s*[(:]\s*(?:string|integer|boolean|number|object|array|int|bool|float)\b(?:\s*,\s*(?:optional|required))?\)?/i,
      /^\s*[1-5]\d\d\s+(?:OK|Created|Accepted|No Content|Bad Request|Unauthorized|Forbidden|Not Found|Conflict|Unprocessable|Too Many|Internal Server Error|Service Unavailable)\b/i,
      /^\s*(?:parameters?|request body|response(?: body)?|query parameters|path parameters|headers?)\s*:?$/i,
    ),
  },
  procedural: {
    mode: 'count',
    threshold: 4,
    hits: linesMatching(
      anyOf(
        /^\s*(?:step\s+\d+\b|\d+[.)]\s+(?:click|select|open|go to|navigate|enter|type|press|run|install|choose|tap|download|configure|set|add|remove|create|copy|paste|restart|log in|sign in)\b)/i,
        /^\s*(?:[-*•]\s+)?(?:click|tap|select|navigate to|go to|press|type|enter your|choose|open the|run the|install the|copy the|paste the)\b/i,
      ),
    ),
  },
  advertising: {
    mode: 'count',
    threshold: 2,
    hits: countOf(
      /(?:\b(?:buy now|shop now|order now|add to cart|limited[- ]time|special offer|act now|free shipping|free trial|sign up (?:now|today|for free)|subscribe (?:now|today)|promo(?:tional)? code|coupon code|discount code|best price|lowest price|sale ends|save \d+%|sponsored|advertisement|call now|don't miss out|exclusive deal|money[- ]back guarantee)\b|\d+% off\b)/gi,
    ),
  },
  web_artifacts: {
    mode: 'line_ratio',
    matches: anyOf(
      /^\s*<?(?:https?:\/\/|www\.)\S+>?$/,
      /^\s*\[(?:edit|citation needed|\d{1,3}|show|hide|update)\]$/i,
      /^(?:jump to (?:navigation|search)|from wikipedia, the free encyclopedia|retrieved from\s|categories?:\s|hidden categor)/i,
      /\b(?:we use cookies|accept (?:all )?cookies|cookie (?:settings|preferences|policy))\b/i,
      /^[\p{L}\d][\p{L}\d &'-]{0,40}(?:\s*[>»›]\s*[\p{L}\d][\p{L}\d &'-]{0,40}){2,}$/u,
      /^(?:share (?:this|on)|tweet|pin it|email|facebook|twitter|linkedin|reddit|whatsapp|instagram|youtube)(?:\s*[|·•,/]?\s*(?:facebook|twitter|x|linkedin|reddit|whatsapp|email|instagram|youtube|pinterest))*\s*:?$/i,
      /^\s*!\[[^\]]{0,200}\]\([^)]{0,500}\)$/,
      (line) => line.replace(TAGS_AND_ENTITIES, '').length <= line.length * 0.7,
    ),
  },
  bulk_lists: { mode: 'count', threshold: 10, hits: bulkListHits },
};

interface Aggressiveness {
  /** Share of a chunk's non-empty lines that must match before a `line_ratio` category strips them. */
  lineRatio: number;
  /** Multiplies each `count` category's threshold. */
  countFactor: number;
}

const AGGRESSIVENESS: Record<Exclude<FilteringMode, 'unfiltered'>, Aggressiveness> = {
  minimal: { lineRatio: 0.75, countFactor: 2 },
  lenient: { lineRatio: 0.5, countFactor: 1.5 },
  balanced: { lineRatio: 0.3, countFactor: 1 },
  strict: { lineRatio: 0.15, countFactor: 0.75 },
  maximum: { lineRatio: 0, countFactor: 0.5 },
};

export interface FilterOptions {
  enabled: boolean;
  mode: FilteringMode;
  /** The domain's `content_exclusions.categories`; names that are not categories are ignored. */
  categories: readonly string[];
}

export interface DroppedChunk {
  id: string;
  /** `category`: a count category fired; `too_short`: under 100 characters once lines were stripped. */
  reason: 'category' | 'too_short';
  categories: ContentCategory[];
}

export interface FilterStats {
  total: number;
  kept: number;
  dropped: number;
  /** Kept copies that lost lines. */
  stripped: number;
  linesStripped: number;
  /** Chunks each category stripped lines from or dropped. */
  byCategory: Partial<Record<ContentCategory, number>>;
}

export interface FilterResult<T extends { id: string; content: string }> {
  kept: T[];
  dropped: DroppedChunk[];
  stats: FilterStats;
}

const isCategory = (name: string): name is ContentCategory => (contentCategories as readonly string[]).includes(name);

type Verdict =
  | { kind: 'keep'; content: string; categories: ContentCategory[]; lines: number }
  | { kind: 'drop'; dropped: Omit<DroppedChunk, 'id'> };

function judge(content: string, categories: readonly ContentCategory[], level: Aggressiveness): Verdict {
  const lines = content.split('\n');
  const fired = categories.filter((category) => {
    const detector = DETECTORS[category];
    return (
      detector.mode === 'count' &&
      detector.hits(content, lines) >= Math.max(1, Math.ceil(detector.threshold * level.countFactor))
    );
  });
  if (fired.length > 0) return { kind: 'drop', dropped: { reason: 'category', categories: fired } };

  const nonEmpty = lines.filter((line) => line.trim()).length;
  const strip = new Set<number>();
  const stripping: ContentCategory[] = [];
  for (const category of categories) {
    const detector = DETECTORS[category];
    if (detector.mode !== 'line_ratio') continue;
    const matched: number[] = [];
    lines.forEach((line, i) => {
      const trimmed = line.trim();
      if (trimmed && trimmed.length <= MAX_CATEGORY_LINE && detector.matches(trimmed)) matched.push(i);
    });
    if (matched.length === 0 || matched.length / nonEmpty < level.lineRatio) continue;
    stripping.push(category);
    matched.forEach((i) => strip.add(i));
  }
  if (strip.size === 0) return { kind: 'keep', content, categories: [], lines: 0 };
  const rest = lines
    .filter((_, i) => !strip.has(i))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (rest.length < MIN_STRIPPED_LENGTH)
    return { kind: 'drop', dropped: { reason: 'too_short', categories: stripping } };
  return { kind: 'keep', content: rest, categories: stripping, lines: strip.size };
}

/**
 * The categories `content` falls under at a mode's cut-offs: those whose hits would drop it or whose
 * lines would be stripped from it.
 */
export function contentCategoriesOf(
  content: string,
  categories: readonly ContentCategory[],
  mode: Exclude<FilteringMode, 'unfiltered'> = 'balanced',
): ContentCategory[] {
  const verdict = judge(content, categories, AGGRESSIVENESS[mode]);
  return verdict.kind === 'drop' ? verdict.dropped.categories : verdict.categories;
}

/** Copies of `chunks` fit for extraction, in order; chunks no category touched come back unchanged. */
export function filterForExtraction<T extends { id: string; content: string }>(
  chunks: readonly T[],
  options: FilterOptions,
): FilterResult<T> {
  const stats: FilterStats = {
    total: chunks.length,
    kept: 0,
    dropped: 0,
    stripped: 0,
    linesStripped: 0,
    byCategory: {},
  };
  const categories = [...new Set(options.categories.filter(isCategory))];
  if (!options.enabled || options.mode === 'unfiltered' || categories.length === 0) {
    return { kept: [...chunks], dropped: [], stats: { ...stats, kept: chunks.length } };
  }
  const level = AGGRESSIVENESS[options.mode];
  const kept: T[] = [];
  const dropped: DroppedChunk[] = [];
  const tally = (touched: readonly ContentCategory[]) => {
    for (const category of touched) stats.byCategory[category] = (stats.byCategory[category] ?? 0) + 1;
  };
  for (const chunk of chunks) {
    const verdict = judge(chunk.content, categories, level);
    if (verdict.kind === 'drop') {
      dropped.push({ id: chunk.id, ...verdict.dropped });
      tally(verdict.dropped.categories);
      continue;
    }
    kept.push(verdict.content === chunk.content ? chunk : { ...chunk, content: verdict.content });
    if (verdict.lines > 0) {
      stats.stripped++;
      stats.linesStripped += verdict.lines;
      tally(verdict.categories);
    }
  }
  return { kept, dropped, stats: { ...stats, kept: kept.length, dropped: dropped.length } };
}

// --- Presets ------------------------------------------------------------------------------------

export type EvidenceMode = 'off' | 'relaxed' | 'narrative' | 'standard' | 'strict';

/** The extraction knobs one filtering mode sets; null means the limit is off. */
export interface FilteringPreset {
  evidenceMode: EvidenceMode;
  strictEdgeTypes: boolean;
  maxEntityDegree: number | null;
  maxSameSourceType: number | null;
  maxRelationshipRatio: number | null;
  /** Minimum plausibility for entities of named and of non-named types; null = no plausibility check. */
  plausibility: { named: number; nonNamed: number } | null;
  loopEntityCap: number;
  dedupThreshold: number;
  minAliasLength: number;
  protectOrphans: boolean;
  typeRescue: boolean;
}

const PRESETS: Record<FilteringMode, FilteringPreset> = {
  unfiltered: {
    evidenceMode: 'off',
    strictEdgeTypes: false,
    maxEntityDegree: null,
    maxSameSourceType: null,
    maxRelationshipRatio: null,
    plausibility: null,
    loopEntityCap: 200,
    dedupThreshold: 0.99,
    minAliasLength: 1,
    protectOrphans: true,
    typeRescue: false,
  },
  minimal: {
    evidenceMode: 'relaxed',
    strictEdgeTypes: false,
    maxEntityDegree: 50,
    maxSameSourceType: 20,
    maxRelationshipRatio: 15,
    plausibility: null,
    loopEntityCap: 100,
    dedupThreshold: 0.97,
    minAliasLength: 1,
    protectOrphans: true,
    typeRescue: false,
  },
  lenient: {
    evidenceMode: 'narrative',
    strictEdgeTypes: false,
    maxEntityDegree: 30,
    maxSameSourceType: 15,
    maxRelationshipRatio: 10,
    plausibility: { named: 0.2, nonNamed: 0.1 },
    loopEntityCap: 75,
    dedupThreshold: 0.93,
    minAliasLength: 2,
    protectOrphans: false,
    typeRescue: true,
  },
  balanced: {
    evidenceMode: 'standard',
    strictEdgeTypes: false,
    maxEntityDegree: 25,
    maxSameSourceType: 12,
    maxRelationshipRatio: 8,
    plausibility: { named: 0.3, nonNamed: 0.15 },
    loopEntityCap: 50,
    dedupThreshold: 0.9,
    minAliasLength: 2,
    protectOrphans: false,
    typeRescue: true,
  },
  strict: {
    evidenceMode: 'strict',
    strictEdgeTypes: true,
    maxEntityDegree: 20,
    maxSameSourceType: 10,
    maxRelationshipRatio: 6,
    plausibility: { named: 0.3, nonNamed: 0.15 },
    loopEntityCap: 35,
    dedupThreshold: 0.87,
    minAliasLength: 3,
    protectOrphans: false,
    typeRescue: true,
  },
  maximum: {
    evidenceMode: 'strict',
    strictEdgeTypes: true,
    maxEntityDegree: 15,
    maxSameSourceType: 7,
    maxRelationshipRatio: 4,
    plausibility: { named: 0.4, nonNamed: 0.25 },
    loopEntityCap: 25,
    dedupThreshold: 0.85,
    minAliasLength: 3,
    protectOrphans: false,
    typeRescue: true,
  },
};

export function filteringPreset(mode: FilteringMode): FilteringPreset {
  return { ...PRESETS[mode], plausibility: PRESETS[mode].plausibility && { ...PRESETS[mode].plausibility } };
}
