import { Type } from '@sinclair/typebox';
import type { Platform } from '@rhizome/core/platform';
import { tool } from '../tool.ts';

/** The active database's pending migrations (none once applied). */
export async function pendingMigrations(platform: Platform): Promise<string[]> {
  const name = platform.databases.currentName();
  const db = await platform.databases.connection(name);
  return (await platform.databases.migrator(name).status(db)).pending;
}

/** The only tools offered while the schema is behind: see what is pending, and apply it (after a backup). */
export const upgradeTools = [
  tool({
    name: 'upgrade_status',
    kind: 'maintenance',
    description: 'Whether the database schema is up to date, and the migrations waiting to be applied.',
    input: Type.Object({}),
    async run(_args, { platform }) {
      const name = platform.databases.currentName();
      const db = await platform.databases.connection(name);
      const status = await platform.databases.migrator(name).status(db);
      return {
        database: name,
        ready: status.pending.length === 0,
        current_revision: status.current_revision,
        pending: status.pending,
      };
    },
  }),
  tool({
    name: 'apply_upgrade',
    kind: 'maintenance',
    description:
      'Apply the pending schema migrations (a backup is written first); every other tool is offered again afterwards.',
    input: Type.Object({}),
    async run(_args, { platform }) {
      const name = platform.databases.currentName();
      const db = await platform.databases.connection(name);
      return { database: name, ...(await platform.databases.migrator(name).apply(db)) };
    },
  }),
];
