/**
 * The source-wide finalisation of extraction: the groups' harvests become one
 * set of entities and relationships for the commit. Each step is its own module; this file only runs
 * them in order and keeps the aggregate→current entity map that relationships are remapped through.
 *
 *  1 aggregate          5 hierarchical names     9 strict edge types     13 inverse edges
 *  2 structural filter  6 (merge rules, merge.ts) 10 direction correction
 *  3 exact dedup        7 type normalisation     11 caps
 *  4 semantic dedup     8 relationship dedup     12 orphans
 *
 * Steps 9–12 are relaxed for a source they would leave with no entity (relax.ts), and the result says why.
 *
 * Deterministic: entities come out in first-seen order, relationships in the order their first
 * occurrence was harvested, mirrored inverse edges last.
 */
import type { FinalEntity, FinalizeOptions, FinalizeResult, FinalRelationship, GroupHarvest } from '../types.ts';
import { aggregate } from './aggregate.ts';
import { applyCaps } from './caps.ts';
import { correctDirections } from './direction.ts';
import { EdgeCatalog } from './edges.ts';
import { exactDedup } from './exact-dedup.ts';
import { hierarchicalDedup } from './hierarchical.ts';
import { addInverses } from './inverses.ts';
import { advance, emptyStats, type WorkEntity, type WorkRelationship } from './model.ts';
import { dropOrphans } from './orphans.ts';
import { collapseRelationships, remapRelationships } from './relationships.ts';
import { semanticDedup } from './semantic-dedup.ts';
import { keepTemplateTypes } from './strict-types.ts';
import { keepingEntities } from './relax.ts';
import { StructuralFilter } from './structural.ts';
import { normalizeTypes, TypeResolver } from './entity-types.ts';

export async function finalizeExtraction(harvests: GroupHarvest[], options: FinalizeOptions): Promise<FinalizeResult> {
  const stats = emptyStats();
  const types = new TypeResolver(options.domain);
  const edges = new EdgeCatalog(options.domain, types);

  // 1
  const aggregated = aggregate(harvests, options.preset.minAliasLength, stats);
  let state = aggregated.state;
  // 2
  if (options.filterStructural) {
    const { step, dropped } = new StructuralFilter(options.domain, types).apply(state.entities);
    stats.structuralDropped += dropped;
    state = advance(state, step);
  }
  // 3
  const exact = exactDedup(state.entities, types);
  stats.exactMerges += exact.merges;
  state = advance(state, exact.step);
  // 4
  if (options.dedupMode === 'semantic') {
    const semantic = await semanticDedup(state.entities, types, {
      threshold: options.dedupThreshold,
      embed: (texts) => options.embed(texts),
    });
    if (semantic.fellBack) stats.semanticFallbacks++;
    else {
      stats.semanticMerges += semantic.merges;
      state = advance(state, semantic.step);
    }
  }
  // 5 (merge rules of 6 apply inside 3–5)
  const hierarchical = hierarchicalDedup(state.entities, types);
  stats.hierarchicalMerges += hierarchical.merges;
  state = advance(state, hierarchical.step);
  // 7
  let entities = state.entities;
  normalizeTypes(entities, types, stats);
  // 8
  let relationships = collapseRelationships(
    remapRelationships(aggregated.relationships, state.map, options.allowSelfLoops, stats),
    edges,
    stats,
  );
  // 9–12, relaxed when they would keep no entity
  const ruled = keepingEntities(entities, options, options.domain.name, (rules) => {
    const trial = { ...stats };
    let kept = relationships;
    // 9
    if (rules.strictEdgeTypes) kept = keepTemplateTypes(kept, edges, trial);
    // 10: a swapped edge may now state a fact another edge states too.
    const corrected = trial.directionCorrected;
    kept = correctDirections(kept, entities, edges, options.directionCorrection, trial);
    if (trial.directionCorrected > corrected) kept = collapseRelationships(kept, edges, trial);
    kept.sort((a, b) => a.order - b.order);
    // 11
    kept = applyCaps(kept, entities.length, options.limits, trial);
    // 12
    if (rules.protectOrphans) return { entities, relationships: kept, stats: trial };
    return { ...dropOrphans(entities, kept, trial), stats: trial };
  });
  Object.assign(stats, ruled.stats);
  entities = ruled.entities;
  relationships = ruled.relationships;
  // 13
  if (options.inverseRelationships) relationships = addInverses(relationships, edges, stats);

  return {
    entities: entities.map(toFinalEntity),
    relationships: relationships.map(toFinalRelationship),
    stats,
    relaxed: ruled.relaxed,
  };
}

function toFinalEntity({ order: _order, ...entity }: WorkEntity): FinalEntity {
  return entity;
}

function toFinalRelationship({ order: _order, ...relationship }: WorkRelationship): FinalRelationship {
  return relationship;
}
