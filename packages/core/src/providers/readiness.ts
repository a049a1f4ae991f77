import { ErrorCode, NotReady, describeError } from '@rhizome/contracts/errors';
import type { ChatProvider, Settings } from '@rhizome/contracts/settings';
import { configuredModels } from './llm/models.ts';
import type { LlmAdapter } from './llm/port.ts';

export interface Readiness {
  verified: boolean;
  provider: ChatProvider;
  models: { chat: string; extraction: string; vision: string | null };
  missing_models: string[];
  message: string;
  checked_at: string;
}

export type ReadinessPurpose = 'chat' | 'extraction';

const cacheMs = 15_000;
const checkTimeoutMs = 5_000;

/**
 * Answers "is the configured provider verified, and does it have its models?" for chat and source
 * processing. Answers are cached briefly and dropped whenever the llm settings change, so switching
 * provider or model takes effect at the next request.
 */
export class ReadinessGate {
  #cached: { llm: Settings['llm']; at: number; readiness: Promise<Readiness> } | null = null;

  constructor(
    private readonly settings: () => Settings,
    private readonly adapter: (settings: Settings) => LlmAdapter,
  ) {}

  status(options: { fresh?: boolean } = {}): Promise<Readiness> {
    const settings = this.settings();
    const cached = this.#cached;
    if (!options.fresh && cached && cached.llm === settings.llm && Date.now() - cached.at < cacheMs)
      return cached.readiness;
    const readiness = this.#check(settings);
    this.#cached = { llm: settings.llm, at: Date.now(), readiness };
    return readiness;
  }

  /** Throws NotReady LLM_NOT_VERIFIED or EXTRACTION_MODEL_MISSING (with details.missing_models) when not ready. */
  async assertReady(purpose: ReadinessPurpose): Promise<void> {
    const readiness = await this.status();
    if (!readiness.verified) {
      throw new NotReady(
        `the ${readiness.provider} provider is not verified: ${readiness.message}`,
        { provider: readiness.provider },
        ErrorCode.llmNotVerified,
      );
    }
    const needed = purpose === 'chat' ? readiness.models.chat : readiness.models.extraction;
    if (readiness.missing_models.includes(needed)) {
      throw new NotReady(
        `the ${purpose} model '${needed}' is not available on the ${readiness.provider} provider`,
        {
          provider: readiness.provider,
          missing_models: readiness.missing_models,
        },
        ErrorCode.extractionModelMissing,
      );
    }
  }

  async #check(settings: Settings): Promise<Readiness> {
    const models = configuredModels(settings.llm);
    const wanted = [...new Set([models.chat, models.extraction, ...(models.vision ? [models.vision] : [])])];
    const check = await this.adapter(settings)
      .check(wanted, AbortSignal.timeout(checkTimeoutMs))
      .catch((error: unknown) => ({
        verified: false,
        missingModels: [],
        message: describeError(error),
      }));
    return {
      verified: check.verified,
      provider: settings.llm.chat_provider,
      models,
      missing_models: check.missingModels,
      message: check.message,
      checked_at: new Date().toISOString(),
    };
  }
}
