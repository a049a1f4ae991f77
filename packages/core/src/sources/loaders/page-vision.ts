import type { Settings } from '@rhizome/contracts/settings';
import { llmCallPolicy, modelFor } from '../../providers/index.ts';
import { visionDecision } from '../vision.ts';
import type { PageVision } from './media-reading.ts';

/**
 * The vision model that reads PDF pages without a text layer, decided as for image sources: the local
 * server's `llm.localllm_vision_model`, or a cloud chat model the catalogue says reads images (any cloud
 * chat model when the source asks with `enable_vision=true`); none with `enable_vision=false`. Built
 * where the settings are, never on a preparation thread, which does not load the sources' storage.
 */
export function pageVision(settings: Settings, enableVision: boolean | null): PageVision {
  const decision = visionDecision(settings, enableVision);
  if (!decision.run)
    return {
      vision: null,
      visionUnavailable:
        enableVision === false
          ? 'the source was uploaded with enable_vision=false'
          : 'no vision model is configured (set llm.localllm_vision_model, or choose a vision-capable cloud model)',
    };
  return {
    vision: {
      llm: settings.llm,
      model: modelFor(settings.llm, 'vision'),
      maxTokens: settings.llm.vision_max_tokens,
      policy: llmCallPolicy(settings),
    },
    visionUnavailable: null,
  };
}
