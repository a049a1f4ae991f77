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
  // 9
  if (options.strictEdgeTypes) relationships = keepTemplateTypes(relationships, edges, stats);
  // 10: a swapped edge may now state a fact another edge states too.
  const corrected = stats.directionCorrected;
  relationships = correctDirections(relationships, entities, edges, options.directionCorrection, stats);
  if (stats.directionCorrected > corrected) relationships = collapseRelationships(relationships, edges, stats);
  relationships.sort((a, b) => a.order - b.order);
  // 11
  relationships = applyCaps(relationships, entities.length, options.limits, stats);
  // 12
  if (!options.protectOrphans) ({ entities, relationships } = dropOrphans(entities, relationships, stats));
  // 13
  if (options.inverseRelationships) relationships = addInverses(relationships, edges, stats);

  return { entities: entities.map(toFinalEntity), relationships: relationships.map(toFinalRelationship), stats };
}

function toFinalEntity({ order: _order, ...entity }: WorkEntity): FinalEntity {
  return entity;
}

function toFinalRelationship({ order: _order, ...relationship }: WorkRelationship): FinalRelationship {
  return relationship;
}
