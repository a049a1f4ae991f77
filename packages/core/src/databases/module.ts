import type { FeatureModule } from '../platform/index.ts';

/** Databases: one directory and `app.db` each under `<data_dir>/databases/`, one active (`platform.databases`). */
export const databasesModule: FeatureModule = {
  name: 'databases',
  tables: [],
  health: (platform) => ({
    database: async () => {
      const { name, db } = await platform.databases.current();
      await db.raw('SELECT 1');
      return { status: 'ok', details: { database: name } };
    },
  }),
};
