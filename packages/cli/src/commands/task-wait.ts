import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { CliFailure } from '../exit-codes.ts';
import type { Remote } from '../remote.ts';

const pollMs = 250;

/** Waits for a queued task to end; a failed or cancelled one is the command's failure. */
export async function waitForTask(remote: Remote, taskId: string, what: string): Promise<void> {
  for (;;) {
    const task = await remote.client.call(queueEndpoints.get, { params: { task_id: taskId } });
    if (task.status === 'completed') return;
    if (task.status === 'failed' || task.status === 'cancelled')
      throw new CliFailure(`${what} ${task.status}${task.error ? `: ${task.error}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
