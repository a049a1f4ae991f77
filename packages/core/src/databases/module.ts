import type { FeatureModule } from '../module/index.ts';
import type { DatabaseManager } from './manager.ts';

/** What the databases module needs of the process it runs in: the manager of its databases. */
export interface DatabasesHost {
  databases: Pick<DatabaseManager, 'current'>;
}

/** Databases: one directory and `app.db` each under `<data_dir>/databases/`, one active (`platform.databases`). */
export const databasesModule: FeatureModule<unknown, DatabasesHost> = {
  name: 'databases',
  tables: [],
  health: (host) => ({
    database: async () => {
      const { name, db } = await host.databases.current();
      await db.raw('SELECT 1');
      return { status: 'ok', details: { database: name } };
    },
  }),
};
