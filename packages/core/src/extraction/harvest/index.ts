import type { ChatProvider } from '@rhizome/contracts/settings';
import type { LlmCallContext } from '../../providers/index.ts';
import type { LlmService } from '../../providers/index.ts';
import type { DomainDefinition } from '../../sources/index.ts';
import type { AttemptRecorder } from '../attempts/recorder.ts';
import type { FilteringPreset } from '../content-filter.ts';
import type { GroupChunk, GroupHarvest } from '../types.ts';
import { collectEntities } from './entities.ts';
import { guardLimits, StreamGuard } from './guards.ts';
import { RETRY_EMPTY_MIN_CHARS, runPass } from './passes.ts';
import { entityPrompt, relationshipPrompt, SYSTEM_PROMPT } from './prompts.ts';
import { collectRelationships } from './relationships.ts';
import { promptText, splitSentences } from './sentences.ts';
import { emptyHarvestStats } from './stats.ts';
import { validateEntities } from './validate.ts';

/**
 * One extraction group → its harvest: the group's chunks as numbered sentences;
 * pass 1 asks for entities and properties; the entities are validated (evidence, exclusions, type
 * rescue, plausibility) and re-indexed; pass 2 asks for relationships between the survivors (skipped
 * with fewer than two). Both passes stream under loop guards. Cancelling `signal` cancels the call in
 * flight and rejects.
 */

export interface HarvestInput {
  /** The group's chunks in order (content-filtered copies). */
  chunks: GroupChunk[];
  domain: DomainDefinition;
  preset: FilteringPreset;
  /** Resolved by the caller (setting or preset): drop relationships whose type matches no edge template. */
  strictEdgeTypes: boolean;
  llm: Pick<LlmService, 'stream'>;
  signal: AbortSignal;
  /** database, sourceId, taskId — for metrics. */
  context: LlmCallContext;
  /** Cap on the domain examples in each prompt (`llm.extraction_examples_max_chars`; default 800). */
  examplesMaxChars?: number;
  /** Overrides the settings' extraction model (a re-run with another model). */
  model?: string;
  /** Overrides the settings' provider (a re-run with another provider). */
  provider?: ChatProvider;
  /** Keeps the calls and the dropped items of this attempt. */
  recorder?: AttemptRecorder;
}

export async function harvestGroup(input: HarvestInput): Promise<GroupHarvest> {
  input.signal.throwIfAborted();
  const stats = emptyHarvestStats();
  const sentences = splitSentences(input.chunks);
  if (sentences.length === 0) return { entities: [], relationships: [], stats };
  const texts = sentences.map(promptText);
  const retryEmpty = input.chunks.reduce((sum, chunk) => sum + chunk.content.trim().length, 0) >= RETRY_EMPTY_MIN_CHARS;
  const limits = guardLimits(input.preset.loopEntityCap);
  const common = {
    llm: input.llm,
    system: SYSTEM_PROMPT,
    signal: input.signal,
    context: input.context,
    retryEmpty,
    stats,
    model: input.model,
    provider: input.provider,
    recorder: input.recorder,
  };

  const entityPass = await runPass({
    ...common,
    user: entityPrompt({ sentences, domain: input.domain, examplesMaxChars: input.examplesMaxChars }),
    extraction: {
      pass: 'entities',
      sentences: texts,
      nodeTypes: input.domain.templates.node_templates.map((template) => template.name),
    },
    guard: () => new StreamGuard('entities', limits),
  });
  const entities = validateEntities({
    entities: collectEntities(entityPass.records),
    sentences,
    domain: input.domain,
    preset: input.preset,
    stats,
    recorder: input.recorder,
  });
  if (entities.length < 2) return { entities, relationships: [], stats };

  const listed = entities.map(({ name, type, aliases }) => ({ name, type, aliases }));
  const relationshipPass = await runPass({
    ...common,
    user: relationshipPrompt({
      sentences,
      domain: input.domain,
      entities: listed,
      examplesMaxChars: input.examplesMaxChars,
    }),
    extraction: {
      pass: 'relationships',
      sentences: texts,
      entities: listed,
      edgeTypes: input.domain.templates.edge_templates.map((template) => template.name),
    },
    guard: () => new StreamGuard('relationships', limits, entities.length),
  });
  const relationships = collectRelationships({
    items: relationshipPass.records,
    entities,
    sentences,
    domain: input.domain,
    strictEdgeTypes: input.strictEdgeTypes,
    stats,
    recorder: input.recorder,
  });
  return { entities, relationships, stats };
}
