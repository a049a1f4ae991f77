import type { HealthProbe, SubsystemHealth } from '../module/index.ts';
import type { Providers } from './hub.ts';

/** The llm and embeddings subsystems of GET /health (and of the health monitor that pauses processing). */
export function providerHealth(providers: Providers): Record<'llm' | 'embeddings', HealthProbe> {
  return {
    async llm(): Promise<SubsystemHealth> {
      const readiness = await providers.readiness.status();
      const details = {
        provider: readiness.provider,
        models: readiness.models,
        missing_models: readiness.missing_models,
      };
      if (!readiness.verified) return { status: 'unavailable', message: readiness.message, details };
      if (readiness.missing_models.length)
        return { status: 'degraded', message: `missing models: ${readiness.missing_models.join(', ')}`, details };
      return { status: 'ok', message: readiness.message, details };
    },
    async embeddings(): Promise<SubsystemHealth> {
      const identity = providers.embeddings.identity();
      const check = await providers.embeddings.check(AbortSignal.timeout(2500));
      return { status: check.ready ? 'ok' : 'unavailable', message: check.message, details: { ...identity } };
    },
  };
}
