import type { DomainDefinition } from '../../sources/index.ts';
import type { AttemptRecorder } from '../attempts/recorder.ts';
import type { FilteringPreset } from '../content-filter.ts';
import type { GroupSentence, HarvestedEntity, HarvestStats } from '../types.ts';
import type { RawEntity } from './entities.ts';
import { validateEvidence } from './evidence.ts';
import { cleanAliases, ExclusionFilter } from './exclusions.ts';
import { resolveNodeType } from './node-types.ts';
import { plausibility } from './plausibility.ts';
import { evidenceFor } from './sentences.ts';
import { mentionsAny } from './text-match.ts';

/**
 * Between the passes: which entities of pass 1 go on, in order — aliases cleaned (too short for the
 * preset, repeats, pronouns), evidence validated per the preset's mode (evidence.ts), exclusions
 * (exclusions.ts), type rescue (node-types.ts), plausibility (plausibility.ts). Each drop is counted in
 * `stats`, and each rescued type of a survivor. The survivors, in pass-1 order, are the entity list of pass 2.
 */

export interface ValidationInput {
  entities: readonly RawEntity[];
  sentences: readonly GroupSentence[];
  domain: DomainDefinition;
  preset: FilteringPreset;
  stats: HarvestStats;
  recorder?: AttemptRecorder;
}

export function validateEntities({
  entities,
  sentences,
  domain,
  preset,
  stats,
  recorder,
}: ValidationInput): HarvestedEntity[] {
  const exclusions = new ExclusionFilter(domain);
  const survivors: HarvestedEntity[] = [];
  for (const entity of entities) {
    const aliases = cleanAliases(entity.name, entity.aliases, preset.minAliasLength);
    const refs = validateEvidence({ name: entity.name, aliases, refs: entity.refs }, sentences, preset.evidenceMode);
    if (refs === null) {
      stats.droppedNoEvidence++;
      recorder?.drop('evidence', 'entity', entity.name, `no cited sentence names it (${preset.evidenceMode} evidence)`);
      continue;
    }
    if (exclusions.isExcluded(entity.name)) {
      stats.droppedExcluded++;
      recorder?.drop('exclusion', 'entity', entity.name, "excluded by the domain's exclusion rules");
      continue;
    }
    const resolved = resolveNodeType(entity.type, domain.templates.node_templates, preset.typeRescue);
    const evidence = evidenceFor(sentences, refs);
    if (preset.plausibility) {
      const namedType = resolved.template?.requires_named_referent ?? false;
      const named = evidence.some((item) => mentionsAny(item.sentence, [entity.name, ...aliases]));
      const score = plausibility(
        { name: entity.name, confidence: entity.confidence, description: entity.description, named },
        namedType,
      );
      const threshold = namedType ? preset.plausibility.named : preset.plausibility.nonNamed;
      if (score < threshold) {
        stats.droppedImplausible++;
        recorder?.drop('plausibility', 'entity', entity.name, `plausibility ${score.toFixed(2)} below ${threshold}`);
        continue;
      }
    }
    if (resolved.tier !== null && resolved.tier !== 'exact') stats.typesRescued++;
    survivors.push({
      name: entity.name,
      type: resolved.type,
      aliases,
      confidence: entity.confidence,
      description: entity.description,
      properties: entity.properties,
      evidence,
    });
  }
  return survivors;
}
