import { useEffect, useState } from 'react';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { api, messageOf } from '../../lib/api.ts';
import { useChanges } from '../../lib/changes.tsx';

export type Task = ResponseOf<typeof queueEndpoints.get>;

export interface TaskState {
  task: Task | null;
  /** The task's result once it completed. */
  result: unknown;
  error: string | null;
  done: boolean;
}

const pollMs = 1_000;
const finished = new Set(['completed', 'failed', 'cancelled']);

/** Follows a queued task until it ends (task events when live, a poll as the floor), then fetches its result. */
export function useTask(taskId: string | null): TaskState {
  const [state, setState] = useState<TaskState>({ task: null, result: undefined, error: null, done: false });
  const [nudge, setNudge] = useState(0);

  useChanges((event) => {
    if (event.type === 'task' && event.task.task_id === taskId) setNudge((count) => count + 1);
  });

  useEffect(() => {
    setState({ task: null, result: undefined, error: null, done: false });
  }, [taskId]);

  useEffect(() => {
    if (!taskId || state.done) return;
    let stopped = false;
    const check = async () => {
      try {
        const task = await api.call(queueEndpoints.get, { params: { task_id: taskId } });
        if (stopped) return;
        if (!finished.has(task.status)) return setState((current) => ({ ...current, task }));
        const result =
          task.status === 'completed'
            ? (await api.call(queueEndpoints.result, { params: { task_id: taskId } })).result
            : undefined;
        if (!stopped)
          setState({
            task,
            result,
            error: task.status === 'failed' ? (task.error ?? 'The task failed.') : null,
            done: true,
          });
      } catch (error) {
        if (!stopped) setState((current) => ({ ...current, error: messageOf(error), done: true }));
      }
    };
    void check();
    const timer = setInterval(() => void check(), pollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [taskId, state.done, nudge]);

  return state;
}
