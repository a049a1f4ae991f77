import type { Db } from '../storage/index.ts';

/** What answers or runs meanwhile and a full reset would delete under it: chats being answered, workflow runs queued or running. */
export interface RunningTasks {
  chat_ids: string[];
  execution_ids: string[];
}

const shown = 100;

export async function runningTasks(db: Db): Promise<RunningTasks> {
  const chats = (await db('chats').where({ status: 'processing' }).orderBy('id').limit(shown).select('id')) as {
    id: string;
  }[];
  const executions = (await db('workflow_executions')
    .whereIn('status', ['queued', 'running'])
    .orderBy('id')
    .limit(shown)
    .select('id')) as { id: string }[];
  return { chat_ids: chats.map((row) => row.id), execution_ids: executions.map((row) => row.id) };
}
