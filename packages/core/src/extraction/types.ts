/**
 * The shapes extraction passes between its stages: a group's harvest (two LLM passes over numbered
 * sentences, harvest/), the source-wide finalisation (finalize/), and the commit to the graph.
 */
import type { DomainDefinition } from '../sources/index.ts';
import type { FilteringPreset } from './content-filter.ts';

/** One chunk of an extraction group, as the LLM sees it (a content-filtered copy; stored chunks stay intact). */
export interface GroupChunk {
  id: string;
  index: number;
  content: string;
  pageNumber: number | null;
  section: string | null;
}

/** A numbered sentence of a group (`S1`, `S2`, … in the prompt) and where it lies in its chunk. */
export interface GroupSentence {
  /** 1-based, as the prompt numbers it. */
  number: number;
  text: string;
  chunkId: string;
  chunkIndex: number;
  /** Offsets of the sentence within the chunk's content. */
  start: number;
  end: number;
}

/** Sentences that support an entity or a relationship, one item per sentence. */
export interface Evidence {
  chunkId: string;
  chunkIndex: number;
  sentence: string;
  start: number;
  end: number;
}

export interface HarvestedEntity {
  name: string;
  type: string;
  aliases: string[];
  /** 0..1 */
  confidence: number;
  description: string;
  properties: Record<string, string>;
  evidence: Evidence[];
}

export interface HarvestedRelationship {
  /** Indices into the same harvest's `entities`. */
  sourceIndex: number;
  targetIndex: number;
  /** Canonical edge template name when matched, else the model's type (snake_case). */
  type: string;
  confidence: number;
  justification: string;
  evidence: Evidence[];
  typeMatch: 'exact' | 'substring' | 'words' | 'none';
}

export interface HarvestStats {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  linesParsed: number;
  linesRejected: number;
  rejectedByReason: Record<string, number>;
  /** Guards that cut a pass short, e.g. `entities: same (entity, property) 5 times`. */
  guardsTripped: string[];
  emptyAnswers: number;
  droppedNoEvidence: number;
  droppedExcluded: number;
  droppedImplausible: number;
  typesRescued: number;
  relationshipTypesUnmatched: number;
  relationshipsDroppedStrictType: number;
}

/** What one group's extraction produced; stored as JSON per group, so a crash never loses finished groups. */
export interface GroupHarvest {
  entities: HarvestedEntity[];
  relationships: HarvestedRelationship[];
  stats: HarvestStats;
}

/** Caps after the cascade source → domain → global (null = off). */
export interface RelationshipLimits {
  maxRelationshipRatio: number | null;
  maxEntityDegree: number | null;
  maxSameSourceType: number | null;
}

export interface FinalizeOptions {
  domain: DomainDefinition;
  preset: FilteringPreset;
  /** Cosine threshold for semantic dedup (preset's, unless the operator set extraction.semantic_dedup_threshold). */
  dedupThreshold: number;
  dedupMode: 'semantic' | 'exact';
  filterStructural: boolean;
  directionCorrection: boolean;
  protectOrphans: boolean;
  inverseRelationships: boolean;
  strictEdgeTypes: boolean;
  allowSelfLoops: boolean;
  limits: RelationshipLimits;
  /** Embeds entity texts through the embedding port (semantic dedup); may throw, then exact dedup is used. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export interface FinalEntity {
  /** Normalised name key (NFD, no diacritics, lower case, trimmed). */
  key: string;
  name: string;
  /** A node template name of the domain where one fits, else the model's type. */
  type: string;
  typeNormalizedFrom: string | null;
  aliases: string[];
  description: string;
  confidence: number;
  properties: Record<string, string>;
  /** Values replaced by a merge, oldest first. */
  mergedPropertyHistory: Record<string, string[]>;
  evidence: Evidence[];
}

export interface FinalRelationship {
  /** Indices into `entities` of the same result. */
  sourceIndex: number;
  targetIndex: number;
  type: string;
  confidence: number;
  justification: string;
  evidence: Evidence[];
  directionCorrected: boolean;
  /** Set on a mirrored edge: the type of the edge it mirrors. */
  inverseOf: string | null;
}

export interface FinalizeStats {
  entitiesIn: number;
  relationshipsIn: number;
  structuralDropped: number;
  exactMerges: number;
  semanticMerges: number;
  semanticFallbacks: number;
  hierarchicalMerges: number;
  typesNormalized: number;
  relationshipsDeduplicated: number;
  selfLoopsDropped: number;
  danglingDropped: number;
  directionCorrected: number;
  directionDropped: number;
  strictTypeDropped: number;
  cappedByRatio: number;
  cappedByDegree: number;
  cappedBySameSourceType: number;
  orphansDropped: number;
  inversesAdded: number;
}

export interface FinalizeResult {
  entities: FinalEntity[];
  relationships: FinalRelationship[];
  stats: FinalizeStats;
  /** Why the source's edge rules were relaxed to keep its entities, or null when they were not. */
  relaxed?: string | null;
}
