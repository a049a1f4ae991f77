import { upgradeEndpoints as api } from '@rhizome/contracts/api/ops';
import { ApiError } from '@rhizome/contracts/errors';
import { revisionOf } from '@rhizome/core/storage';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountUpgradeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { databases } = platform;

  routes.add(api.pending, async ({ scope }) => {
    const { name, db } = await scope.database();
    const migrator = databases.migrator(name);
    const status = await migrator.status(db);
    const blocked = status.pending.map((migration) => ({
      revision: revisionOf(migration),
      name: migration,
      tier: 'safe_auto',
    }));
    return {
      ready: blocked.length === 0,
      blocked_on: blocked,
      message: blocked.length
        ? `${blocked.length} ${blocked.length === 1 ? 'migration' : 'migrations'} pending for '${name}'`
        : `Database '${name}' is up to date`,
      last_backup: migrator.latestBackup(),
      last_applied: databases.startupResults.get(name)?.applied ?? [],
      data_changing: blocked.length > 0,
    };
  });
  routes.add(api.apply, async ({ scope }) => {
    const { name, db } = await scope.database();
    return databases.migrator(name).apply(db);
  });
  routes.add(api.rollback, async () => {
    const name = databases.currentName();
    const migrator = databases.migrator(name);
    const backup = migrator.latestBackup();
    if (!backup) throw ApiError.notFound('pre_upgrade_backup', name);
    const db = await databases.restore(name, backup);
    return { restored_from: backup, revision: (await migrator.status(db)).current_revision };
  });
}
