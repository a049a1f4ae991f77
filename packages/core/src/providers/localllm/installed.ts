import type { Settings } from '@rhizome/contracts/settings';
import { Unavailable } from '@rhizome/contracts/errors';
import { LlmError, llmFailure } from '../llm/errors.ts';
import { OllamaClient, type OllamaModel } from './client.ts';

/**
 * The models every enabled local model server has, each tagged with its instance. Servers that do not
 * answer are left out; when none answers, a server rate limiting us is a rate limit (429) and any other
 * failure means unavailable (503).
 */
export async function installedModels(settings: Settings): Promise<(OllamaModel & { instance_id: string })[]> {
  const instances = settings.llm.localllm_instances.filter((instance) => instance.enabled);
  const signal = AbortSignal.timeout(settings.timeouts.localllm_verify_timeout * 1000);
  const answers = await Promise.allSettled(
    instances.map((instance) => new OllamaClient(instance.base_url).tags(signal)),
  );
  const failures = answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason as unknown] : []));
  if (instances.length && failures.length === instances.length) {
    const first = failures[0];
    throw first instanceof LlmError
      ? llmFailure(first)
      : new Unavailable(`no local model server answers (${instances.map((instance) => instance.base_url).join(', ')})`);
  }
  return answers.flatMap((answer, index) =>
    answer.status === 'fulfilled' ? answer.value.map((model) => ({ ...model, instance_id: instances[index].id })) : [],
  );
}
