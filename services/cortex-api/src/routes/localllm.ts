import { llmEndpoints as api } from '@rhizome/contracts/api/llm';
import { localLlmModelEndpoints as models } from '@rhizome/contracts/api/localllm';
import { installedModels, modelDetails, pullModel, removeModel, verifyServer } from '@rhizome/core/providers';
import { openEventStream } from '../http/sse.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/**
 * `/settings/localllm/*`: check a local model server before saving it, list what the configured ones have,
 * and show, pull and remove their models.
 */
export function mountLocalLlmRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings } = platform;

  routes.add(api.verifyLocal, ({ body }) =>
    verifyServer(body.url, (body.timeout ?? settings.get().timeouts.localllm_verify_timeout) * 1000),
  );
  routes.add(api.localModels, async () => ({ models: await installedModels(settings.get()) }));
  routes.add(models.details, ({ params, query }) => modelDetails(settings.get(), params.model, query.instance_id));
  routes.add(models.remove, ({ body }) => removeModel(settings.get(), body.model, body.instance_id));
  routes.add(models.pull, async ({ body, req, res }) => {
    const controller = new AbortController();
    // Before the stream opens, so an unknown server is a 404 and not a frame.
    const events = pullModel(settings.get(), body.model, body.instance_id, controller.signal);
    const stream = openEventStream(req, res);
    stream.onClose(() => controller.abort());
    for await (const event of events) stream.send(JSON.stringify(event));
    stream.close();
  });
}
