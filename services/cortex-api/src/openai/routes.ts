import { openAiEndpoints as api } from '@rhizome/contracts/api/openai';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';
import { chatCompletion } from './completions.ts';
import { listModels, targetOfModel } from './models.ts';

/** The OpenAI-compatible API under /openai/v1: models and chat completions over the knowledge base. */
export function mountOpenAiRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.models, () => ({ object: 'list' as const, data: listModels(platform) }));
  routes.add(api.chatCompletions, async ({ body, scope, req, res }) => {
    const target = await targetOfModel(platform, body.model, () => scope.database());
    return chatCompletion({ platform, target, body, req, res });
  });
}
