import { settingsEndpoints as api } from '@rhizome/contracts/api/settings';
import { currentLogLevel, isLogLevel, logLevels, numericLevel } from '@rhizome/core/logging';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** Fields PATCH /settings does not change: the active database moves only through PATCH /databases/current. */
const readOnlyFields = ['current_database', 'data_dir'];

export function mountSettingsRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { settings, announceSettingsChanged, logger } = platform;

  routes.add(api.get, () => settings.masked());
  routes.add(api.patch, async ({ body }) => {
    const changes = { ...(body as Record<string, unknown>) };
    for (const field of readOnlyFields) delete changes[field];
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
}
