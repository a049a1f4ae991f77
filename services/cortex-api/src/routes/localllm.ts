import { llmEndpoints as api } from '@rhizome/contracts/api/llm';
import { ApiError } from '@rhizome/contracts/errors';
import { LlmError, llmFailure } from '@rhizome/core/providers';
import { OllamaClient, verifyServer } from '@rhizome/core/providers';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** `/settings/localllm/*`: check a local model server before saving it, and list what the configured ones have. */
export function mountLocalLlmRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings } = platform;

  routes.add(api.verifyLocal, ({ body }) => verifyServer(body.url, (body.timeout ?? settings.get().timeouts.localllm_verify_timeout) * 1000));
  routes.add(api.localModels, async () => {
    const current = settings.get();
    const instances = current.llm.localllm_instances.filter((instance) => instance.enabled);
    const signal = AbortSignal.timeout(current.timeouts.localllm_verify_timeout * 1000);
    const answers = await Promise.allSettled(instances.map((instance) => new OllamaClient(instance.base_url).tags(signal)));
    const failures = answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason as unknown] : []));
    if (instances.length && failures.length === instances.length) {
      const first = failures[0];
      // A server that answers 429 is rate limiting us (429); any other failure means unavailable (503).
      throw first instanceof LlmError ? llmFailure(first) : ApiError.http(503, `no local model server answers (${instances.map((instance) => instance.base_url).join(', ')})`);
    }
    const models = answers.flatMap((answer, index) => (answer.status === 'fulfilled' ? answer.value.map((model) => ({ ...model, instance_id: instances[index].id })) : []));
    return { models };
  });
}
