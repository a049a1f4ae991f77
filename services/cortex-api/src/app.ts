import express, { type Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { identityMiddleware } from './http/identity.ts';
import { buildOpenApi } from './http/openapi.ts';
import { RouteTable } from './http/route.ts';
import type { CortexDeps } from './deps.ts';
import { mountAuthRoutes } from './routes/auth.ts';
import { mountChatRoutes } from './routes/chats.ts';
import { mountBackupRoutes } from './routes/backup.ts';
import { mountRegistryRoutes } from './routes/registry.ts';
import { mountDatabaseRoutes } from './routes/databases.ts';
import { mountEdgeRoutes } from './routes/edges.ts';
import { mountEventRoutes } from './routes/events.ts';
import { mountGraphRoutes } from './routes/graph.ts';
import { mountLlmRoutes } from './routes/llm.ts';
import { mountLocalLlmRoutes } from './routes/localllm.ts';
import { mountNodeRoutes } from './routes/nodes.ts';
import { mountNodeMergeRoutes } from './routes/node-merge.ts';
import { mountDuplicateRoutes } from './routes/duplicates.ts';
import { mountPresetRoutes } from './routes/presets.ts';
import { mountOpsRoutes } from './routes/ops.ts';
import { mountProcessingRoutes } from './routes/processing.ts';
import { mountQueueRoutes } from './routes/queue.ts';
import { mountSearchRoutes } from './routes/search.ts';
import { mountSearchIndexRoutes } from './routes/search-indexes.ts';
import { mountSourcePauseRoutes } from './routes/source-pause.ts';
import { mountSourceRoutes } from './routes/sources.ts';
import { mountSourceDomainRoutes } from './routes/source-domains.ts';
import { mountExtractionRoutes } from './routes/extraction.ts';
import { mountSettingsRoutes } from './routes/settings.ts';
import { mountTlsRoutes } from './routes/tls.ts';
import { mountTemplateRoutes } from './routes/templates.ts';
import { mountUpgradeRoutes } from './routes/upgrade.ts';
import { mountQualityRoutes } from './routes/quality.ts';
import { mountExportRoutes } from './routes/exports.ts';
import { mountToolRoutes } from './routes/tools.ts';
import { mountTriggerRoutes } from './routes/triggers.ts';
import { mountWorkflowRoutes } from './routes/workflows.ts';
import { mountWebInterface } from './web/interface.ts';
import { mountOpenAiRoutes, openAiErrorShape } from './openai/index.ts';
import { mcpEndpoints } from '@rhizome/contracts/api/mcp';
import { mcpRouter } from './mcp/http.ts';

export type { CortexDeps } from './deps.ts';

const featureRoutes = [
  mountAuthRoutes,
  mountTlsRoutes,
  mountSettingsRoutes,
  mountPresetRoutes,
  mountLocalLlmRoutes,
  mountLlmRoutes,
  mountDatabaseRoutes,
  mountUpgradeRoutes,
  mountOpsRoutes,
  mountQueueRoutes,
  mountProcessingRoutes,
  mountSourcePauseRoutes,
  mountSourceDomainRoutes,
  mountSourceRoutes,
  mountExtractionRoutes,
  mountTemplateRoutes,
  mountNodeRoutes,
  mountNodeMergeRoutes,
  mountEdgeRoutes,
  mountGraphRoutes,
  mountDuplicateRoutes,
  mountSearchRoutes,
  mountSearchIndexRoutes,
  mountChatRoutes,
  mountBackupRoutes,
  mountRegistryRoutes,
  mountQualityRoutes,
  mountExportRoutes,
  mountToolRoutes,
  mountTriggerRoutes,
  mountWorkflowRoutes,
  mountEventRoutes,
  mountOpenAiRoutes,
];
const publicDocs = new Set(['/openapi.json', '/docs']);

/** The HTTP API under /api/v1 and the web interface at /, as an express app (no listening). */
export function createCortexApi(deps: CortexDeps): { app: Express; routes: RouteTable } {
  const { platform } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  const api = express.Router();
  const routes = new RouteTable(api, deps.platform);
  const publicRoutes = new Set<string>();
  // Mounted on /api, as nginx's auth_request covers every /api/ path, not only the routes that exist.
  const isPublic = (method: string, path: string) => {
    if (!path.startsWith('/v1/')) return false;
    const route = path.slice('/v1'.length);
    return publicRoutes.has(`${method} ${route}`) || publicDocs.has(route) || route.startsWith('/docs/');
  };

  for (const mount of featureRoutes) mount(routes, deps);
  for (const spec of routes.mounted) if (spec.public) publicRoutes.add(`${spec.method} ${spec.path}`);

  const openApi = buildOpenApi([...routes.mounted, ...Object.values(mcpEndpoints)], platform.version);
  api.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  api.use('/docs', swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/v1/openapi.json' } }));
  api.use(notFoundHandler);

  app.use('/api/v1/openai/v1', openAiErrorShape);
  app.use(
    '/api',
    identityMiddleware({ verifier: deps.verifier, edgeToken: deps.edgeToken, mode: deps.authMode, isPublic }),
  );
  app.use('/api/v1/mcp', mcpRouter(platform));
  app.use('/api/v1', api);
  mountWebInterface(app, platform.version);
  app.use('/api', notFoundHandler);
  app.use(errorHandler(platform.logger));
  return { app, routes };
}
