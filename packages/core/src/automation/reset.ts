import type { Db } from '../storage/index.ts';
import { seedAutomation } from './seeds.ts';
import { systemTools } from './tools/catalogue.ts';

export interface AutomationReset {
  workflows_deleted: number;
  workflow_executions_deleted: number;
  user_tools_deleted: number;
  triggers_deleted: number;
  /** Executions a trigger started, among those deleted. */
  trigger_executions_deleted: number;
  workflows_created: number;
  /** System tools are part of the program, not rows: all of them stay available. */
  system_tools_created: number;
  triggers_created: number;
}

async function count(db: Db, table: string, where?: (query: ReturnType<Db>) => void): Promise<number> {
  const query = db(table);
  where?.(query);
  const row = (await query.count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * Deletes every workflow with its steps and executions, every trigger and user tool, then seeds the system
 * workflow and trigger again, as a new database has them. The caller tells the trigger dispatchers.
 */
export async function resetAutomation(db: Db): Promise<AutomationReset> {
  const deleted = await db.transaction(async (trx) => {
    const counts = {
      workflows_deleted: await count(trx, 'workflows'),
      workflow_executions_deleted: await count(trx, 'workflow_executions'),
      user_tools_deleted: await count(trx, 'user_tools'),
      triggers_deleted: await count(trx, 'triggers'),
      trigger_executions_deleted: await count(trx, 'workflow_executions', (query) => {
        void query.whereNotNull('trigger_id');
      }),
    };
    await trx('workflow_step_runs').del();
    await trx('workflow_executions').del();
    await trx('triggers').del();
    await trx('workflow_steps').del();
    await trx('workflows').del();
    await trx('user_tools').del();
    return counts;
  });
  await seedAutomation(db);
  return {
    ...deleted,
    workflows_created: await count(db, 'workflows'),
    system_tools_created: systemTools.length,
    triggers_created: await count(db, 'triggers'),
  };
}
