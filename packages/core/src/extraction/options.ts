import type { Settings } from '@rhizome/contracts/settings';
import type { FilteringMode } from '../sources/index.ts';
import type { DomainDefinition } from '../sources/index.ts';
import type { SourceRow } from '../sources/index.ts';
import { filteringPreset, type FilteringPreset } from './content-filter.ts';
import type { RelationshipLimits } from './types.ts';

/** What an extraction run is asked for (POST /sources/{id}/extraction); omitted fields reuse the source's persisted options. */
export interface ExtractionRequest {
  analysis_depth?: 'full' | 'quick';
  domain?: string | null;
  filtering_mode?: FilteringMode | null;
  content_filtering?: boolean;
  force?: boolean;
}

/** Everything a run decides up front, stored on the job so every group and the commit agree. */
export interface ExtractionOptions {
  depth: 'full' | 'quick';
  domain: string;
  filteringMode: FilteringMode;
  contentFiltering: boolean;
  directionCorrection: boolean;
  protectOrphans: boolean;
  inverseRelationships: boolean;
  strictEdgeTypes: boolean;
  filterStructural: boolean;
  limits: RelationshipLimits;
  /** The preset's evidence and plausibility checks, with the global settings' values in the global mode. */
  evidenceMode: FilteringPreset['evidenceMode'];
  plausibility: FilteringPreset['plausibility'];
}

/** The filtering preset a run applies: its mode's, with the run's resolved evidence and plausibility checks. */
export function runPreset(options: ExtractionOptions): FilteringPreset {
  return {
    ...filteringPreset(options.filteringMode),
    evidenceMode: options.evidenceMode,
    plausibility: options.plausibility,
    strictEdgeTypes: options.strictEdgeTypes,
  };
}

const flag = (value: number | null): boolean | null => (value === null ? null : value === 1);

/**
 * Resolves a run's options with the cascade source → domain → global. The filtering mode comes from the
 * request or the source, else the domain, else `extraction.extraction_filtering_mode`; its preset
 * sets the caps, orphan protection and strict edge types. The global `extraction.*`
 * caps and switches are the values of the global mode: they apply to runs in that mode, so tuning them
 * never silently changes sources that asked for another mode. A source's `max_entity_degree_override`
 * wins over both. The builtin extractor keeps entities no relationship touches unless the source says
 * otherwise: it types a relation only where a pattern states it, so an unlinked name is the common case,
 * and each one comes with the sentence that names it.
 */
export function resolveExtractionOptions(
  source: SourceRow,
  request: ExtractionRequest,
  domain: DomainDefinition,
  settings: Settings,
): ExtractionOptions {
  const global = settings.extraction;
  const filteringMode = (request.filtering_mode ??
    source.filtering_mode ??
    domain.extraction_filtering_mode ??
    global.extraction_filtering_mode) as FilteringMode;
  const preset: FilteringPreset = filteringPreset(filteringMode);
  const globalMode = filteringMode === global.extraction_filtering_mode;
  return {
    depth: request.analysis_depth ?? source.analysis_depth,
    domain: domain.name,
    filteringMode,
    contentFiltering: request.content_filtering ?? source.content_filtering === 1,
    directionCorrection: flag(source.enable_direction_correction) ?? global.enable_direction_correction,
    protectOrphans:
      flag(source.protect_orphans) ??
      (settings.llm.chat_provider === 'builtin' || (globalMode ? global.protect_orphans : preset.protectOrphans)),
    inverseRelationships: flag(source.enable_inverse_relationships) ?? global.enable_inverse_relationships,
    strictEdgeTypes: globalMode
      ? global.strict_edge_type_constraints || preset.strictEdgeTypes
      : preset.strictEdgeTypes,
    filterStructural: global.filter_structural_entities,
    evidenceMode: globalMode ? global.evidence_validation_mode : preset.evidenceMode,
    plausibility:
      globalMode && preset.plausibility
        ? { named: global.plausibility_threshold, nonNamed: global.non_named_plausibility_threshold }
        : preset.plausibility,
    limits: {
      maxEntityDegree:
        source.max_entity_degree_override ?? (globalMode ? global.max_entity_degree : preset.maxEntityDegree),
      maxSameSourceType: globalMode ? global.max_same_source_type : preset.maxSameSourceType,
      maxRelationshipRatio: globalMode ? global.max_relationship_ratio : preset.maxRelationshipRatio,
    },
  };
}
