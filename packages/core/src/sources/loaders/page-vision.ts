import type { Settings } from '@rhizome/contracts/settings';
import { modelFor } from '../../providers/index.ts';
import { llmCallPolicy } from '../../providers/llm/service.ts';
import { visionAvailable } from '../vision.ts';
import type { PageVision } from './media-reading.ts';

/**
 * The vision model that reads PDF pages without a text layer, as image sources are read: the local
 * server's `llm.localllm_vision_model`, or a cloud chat model the catalogue says reads images. Built where
 * the settings are (never on a preparation thread, which does not load the sources' storage).
 */
export function pageVision(settings: Settings): PageVision {
  if (!visionAvailable(settings))
    return {
      vision: null,
      visionUnavailable:
        'no vision model is configured (set llm.localllm_vision_model, or choose a vision-capable cloud model)',
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
