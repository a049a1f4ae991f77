import type {
  AnalysisSortField,
  SourceQualityDetailsBody,
  SourceQualityScoreBody,
} from '@rhizome/contracts/api/quality';
import { NotFound, describeError } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import { probablyDuplicated } from '../graph/index.ts';
import { domainRegistryFor } from '../sources/index.ts';
import type { DomainDefinition } from '../sources/index.ts';
import { requireSources } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import {
  cachedScore,
  committedSources,
  corpusAverages,
  domainAverages,
  listScores,
  outdatedSources,
  unscoredSourceIds,
  type ScoreFilter,
} from './read-model/scores.ts';
import { storeScores } from './cache.ts';
import { defaultTypeValue } from './entity.ts';
import { scoringVersion } from './grade.ts';
import { defaultSpecificity } from './relationship.ts';
import { graphBatchSize, loadSourceGraphs } from './read-model/source-graphs.ts';
import { scoreSource, type ScoringParams } from './score-source.ts';
import { defaultTargetDensity } from './topology.ts';

export interface QualityServiceDeps {
  db: Db;
  settings(): Settings;
}

/** A database's quality service: the one place it is built, for the module's requests and for extraction's commit. */
export function qualityServiceFor(db: Db, settings: () => Settings): QualityService {
  return new QualityService({ db, settings });
}

export interface RecalculationResult {
  recalculated_count: number;
  errors: { source_id: string; error: string }[];
}

const summaryListSize = 5;

/** The item scores are dropped from what is cached and listed: only `/details` returns them. */
function withoutItems(details: SourceQualityDetailsBody): SourceQualityScoreBody {
  const { entity_scores: _entities, relationship_scores: _relationships, ...score } = details;
  return score;
}

/**
 * Quality scores of one database (docs/decisions/0016): computed from each source's committed graph, cached
 * per source with the formula version, and summarised over the committed sources from the cache.
 * Committed sources without a cached score are scored when a corpus query first needs them.
 */
export class QualityService {
  constructor(private readonly deps: QualityServiceDeps) {}

  /** The cached score, unless `force` or there is none: then computed and cached. 404 for an unknown source. */
  async sourceScore(sourceId: string, force = false): Promise<SourceQualityScoreBody> {
    const cached = force ? undefined : await cachedScore(this.deps.db, sourceId);
    return cached ?? withoutItems(await this.sourceDetails(sourceId));
  }

  /** Always computed (and the cache refreshed), with every entity's and relationship's score. */
  async sourceDetails(sourceId: string): Promise<SourceQualityDetailsBody> {
    const [details] = await this.computeAndCache([sourceId]);
    if (!details) throw NotFound.resource('Source', sourceId);
    return details;
  }

  /** Scores and caches one source; used after a commit. */
  async refresh(sourceId: string): Promise<void> {
    await this.computeAndCache([sourceId]);
  }

  /** Recomputes every committed source (of the domain, if given); a source that fails is reported and the rest go on. */
  async recalculate(domain?: string | null): Promise<RecalculationResult> {
    const ids = ((await committedSources(this.deps.db, domain).orderBy('id').select('id')) as { id: string }[]).map(
      (row) => row.id,
    );
    return this.scoreAll(ids);
  }

  async outdated() {
    const sources = await outdatedSources(this.deps.db);
    return {
      outdated_count: sources.length,
      sources: sources.map((source) => ({ ...source, current_version: scoringVersion })),
    };
  }

  /** Matching committed sources' scores (all, or one window) in order, with averages over every match. */
  async analyze(
    filter: ScoreFilter,
    order: { sortBy: AnalysisSortField; direction: 'asc' | 'desc' },
    window?: { offset: number; limit: number },
  ) {
    if (filter.sourceIds?.length) await requireSources(this.deps.db, filter.sourceIds);
    await this.scoreUnscored(filter.domain);
    const [averages, sources] = await Promise.all([
      corpusAverages(this.deps.db, filter),
      listScores(this.deps.db, filter, order, window),
    ]);
    return {
      sources,
      total_sources: averages.total_sources,
      avg_score: averages.avg_total_score,
      avg_entity_quality: averages.avg_entity_quality,
      avg_relationship_quality: averages.avg_relationship_quality,
    };
  }

  async domains() {
    await this.scoreUnscored();
    return { domains: await domainAverages(this.deps.db) };
  }

  /** Corpus totals and averages, and the five sources with the highest and the lowest total score. */
  async summary() {
    await this.scoreUnscored();
    const { db } = this.deps;
    const [averages, top, bottom] = await Promise.all([
      corpusAverages(db),
      listScores(db, {}, { sortBy: 'total_score', direction: 'desc' }, { offset: 0, limit: summaryListSize }),
      listScores(db, {}, { sortBy: 'total_score', direction: 'asc' }, { offset: 0, limit: summaryListSize }),
    ]);
    return { ...averages, top_sources: top, bottom_sources: bottom };
  }

  /**
   * A source that cannot be scored stays out of corpus queries rather than failing them: it remains
   * listed by `/quality/outdated` (never scored), and `POST /quality/recalculate` reports why.
   */
  private async scoreUnscored(domain?: string | null): Promise<void> {
    await this.scoreAll(await unscoredSourceIds(this.deps.db, domain));
  }

  /** Batches of sources scored together; when a batch fails, its sources are retried one by one so only the failing ones are reported. */
  private async scoreAll(ids: string[]): Promise<RecalculationResult> {
    const result: RecalculationResult = { recalculated_count: 0, errors: [] };
    for (let start = 0; start < ids.length; start += graphBatchSize) {
      const batch = ids.slice(start, start + graphBatchSize);
      try {
        result.recalculated_count += (await this.computeAndCache(batch)).length;
      } catch {
        for (const id of batch) {
          try {
            result.recalculated_count += (await this.computeAndCache([id])).length;
          } catch (single) {
            result.errors.push({ source_id: id, error: describeError(single) });
          }
        }
      }
    }
    return result;
  }

  private async computeAndCache(ids: string[]): Promise<SourceQualityDetailsBody[]> {
    const { db } = this.deps;
    const graphs = await loadSourceGraphs(db, ids);
    const registry = await domainRegistryFor(db);
    const threshold = this.deps.settings().analysis.low_quality_threshold;
    const duplicated = await probablyDuplicated(
      db,
      graphs.flatMap((graph) => graph.entities.map((entity) => entity.id)),
    );
    const details = graphs.map((graph) =>
      scoreSource(graph, scoringParams(graph.domain ? registry.get(graph.domain) : undefined, threshold), duplicated),
    );
    await storeScores(db, details.map(withoutItems));
    return details;
  }
}

/** The domain's type value, specificity and target density, or the formula's defaults. */
function scoringParams(domain: DomainDefinition | undefined, lowQualityThreshold: number): ScoringParams {
  const scoring = domain?.quality_scoring;
  return {
    typeValue: scoring?.default_entity_score ?? defaultTypeValue,
    specificity: scoring?.default_relationship_score ?? defaultSpecificity,
    targetDensity: scoring?.target_density ?? defaultTargetDensity,
    lowQualityThreshold,
  };
}
