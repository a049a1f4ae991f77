import { movedOperatorEndpoints, settingsEndpoints as api } from '@rhizome/contracts/api/settings';
import { ApiError, ErrorCode, Invalid, type ValidationIssue } from '@rhizome/contracts/errors';
import { resetAutomation } from '@rhizome/core/automation';
import { chatModule } from '@rhizome/core/chat';
import { graphModule } from '@rhizome/core/graph';
import { currentLogLevel, isLogLevel, logLevels, numericLevel } from '@rhizome/core/logging';
import { embeddingModelCatalogue, namesMetadataHost } from '@rhizome/core/providers';
import { resetsModule } from '@rhizome/core/resets';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** Fields PATCH /settings does not change: the active database moves only through PATCH /databases/current. */
const readOnlyFields = ['current_database', 'data_dir'];

/** The model-server base URLs a settings change sets, with where they are in the body. */
function baseUrlsIn(changes: Record<string, unknown>): { loc: ValidationIssue['loc']; url: unknown }[] {
  const group = (name: string) =>
    (changes[name] && typeof changes[name] === 'object' ? changes[name] : {}) as Record<string, unknown>;
  const llm = group('llm');
  const found: { loc: ValidationIssue['loc']; url: unknown }[] = [
    'openai_base_url',
    'anthropic_base_url',
    'gemini_base_url',
  ].map((field) => ({
    loc: ['body', 'llm', field],
    url: llm[field],
  }));
  if (Array.isArray(llm.localllm_instances))
    llm.localllm_instances.forEach((instance: unknown, index) =>
      found.push({
        loc: ['body', 'llm', 'localllm_instances', index, 'base_url'],
        url: (instance as { base_url?: unknown } | null)?.base_url,
      }),
    );
  found.push({ loc: ['body', 'embedding', 'api_base'], url: group('embedding').api_base });
  return found;
}

/** Model servers are never reached at link-local or cloud metadata addresses: a base URL naming one is refused. */
function refuseMetadataBaseUrls(changes: Record<string, unknown>): void {
  const issues: ValidationIssue[] = [];
  for (const { loc, url } of baseUrlsIn(changes)) {
    if (typeof url !== 'string' || !URL.canParse(url) || !namesMetadataHost(new URL(url))) continue;
    issues.push({
      loc,
      msg: `${url} is a link-local or cloud metadata address, which model servers are never reached at`,
      type: 'metadata_address',
    });
  }
  if (issues.length)
    throw new Invalid(issues, 'A model server base URL points to a link-local or cloud metadata address');
}

export function mountSettingsRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings, announceSettingsChanged, logger } = platform;

  routes.add(api.get, () => settings.masked());
  routes.add(api.patch, async ({ body }) => {
    const changes = { ...(body as Record<string, unknown>) };
    for (const field of readOnlyFields) delete changes[field];
    refuseMetadataBaseUrls(changes);
    const result = settings.patch(changes);
    await announceSettingsChanged();
    // Sent at all (not only when changed): brings databases seeded while it was off in line.
    const embedding = changes.embedding as { enable_auto_embedding?: unknown } | undefined;
    if (embedding?.enable_auto_embedding !== undefined)
      await platform.automation.setAutoEmbedding(settings.get().embedding.enable_auto_embedding);
    return result;
  });
  routes.add(api.reset, async () => {
    const current = settings.get().current_database;
    settings.reset();
    // Resetting preferences must not silently move the operator to another database.
    const result = settings.patch({ current_database: current }).settings;
    await announceSettingsChanged();
    return result;
  });
  routes.add(api.resetChats, async ({ scope }) => {
    const chats = await scope.service(chatModule);
    const chatsDeleted = await chats.count();
    await chats.deleteAll();
    return { success: true as const, data: { status: 'completed' as const, chats_deleted: chatsDeleted } };
  });
  routes.add(api.resetWorkflows, async ({ scope }) => {
    const counts = await resetAutomation((await scope.database()).db);
    // The reseeded system trigger follows the auto-embedding setting, and every process drops its cached triggers.
    await platform.automation.setAutoEmbedding(settings.get().embedding.enable_auto_embedding);
    return { success: true as const, data: { status: 'completed' as const, ...counts } };
  });
  routes.add(api.resetQueue, async () => {
    const tasksCancelled = await platform.tasks.cancelMatching({}, Date.now());
    const tasksDeleted = await platform.tasks.clearHistory({ finishedBefore: Number.MAX_SAFE_INTEGER });
    return {
      success: true as const,
      data: { status: 'completed' as const, tasks_cancelled: tasksCancelled, tasks_deleted: tasksDeleted },
    };
  });
  routes.add(api.resetSourceProcessing, async ({ scope }) => ({
    success: true as const,
    data: { status: 'completed' as const, ...(await (await scope.service(resetsModule)).processingState()) },
  }));
  routes.add(api.resetKnowledge, async ({ scope }) => (await scope.service(resetsModule)).queueKnowledge(false));
  routes.add(api.resetAll, async ({ body, scope }) => {
    // Of the resets only this one, which leaves the database as new, asks for a word the caller must send.
    if (body.confirmation !== 'CONFIRM')
      throw new ApiError(400, ErrorCode.validationFailed, 'Resetting everything needs {"confirmation": "CONFIRM"}', {
        field: 'confirmation',
      });
    return (await scope.service(resetsModule)).queueKnowledge(true);
  });
  routes.add(api.cleanupOrphans, async ({ scope }) => ({
    ...(await (await scope.service(graphModule)).queueCleanup()),
    operation_type: 'graph_cleanup' as const,
  }));
  routes.add(api.embeddingModels, () => embeddingModelCatalogue(settings.get()));
  routes.add(api.getLogLevel, () => {
    const level = currentLogLevel(logger);
    return { level, numeric_level: numericLevel(level), available_levels: [...logLevels].reverse() };
  });
  routes.add(api.setLogLevel, async ({ body }) => {
    const oldLevel = currentLogLevel(logger);
    const newLevel = isLogLevel(body.level) ? body.level : oldLevel;
    settings.patch({ logging: { level: newLevel } });
    await announceSettingsChanged();
    return { success: true, old_level: oldLevel, new_level: newLevel, message: `Logging level set to ${newLevel}` };
  });
  for (const { endpoint, instead } of movedOperatorEndpoints)
    routes.add(endpoint, () => {
      throw new ApiError(
        404,
        ErrorCode.notFound,
        `${endpoint.method} ${endpoint.path} is not served by Rhizome: use ${instead}`,
        {
          instead,
        },
      );
    });
}
