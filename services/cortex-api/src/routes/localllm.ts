import { llmEndpoints as api } from '@rhizome/contracts/api/llm';
import { installedModels, verifyServer } from '@rhizome/core/providers';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** `/settings/localllm/*`: check a local model server before saving it, and list what the configured ones have. */
export function mountLocalLlmRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings } = platform;

  routes.add(api.verifyLocal, ({ body }) =>
    verifyServer(body.url, (body.timeout ?? settings.get().timeouts.localllm_verify_timeout) * 1000),
  );
  routes.add(api.localModels, async () => ({ models: await installedModels(settings.get()) }));
}
