import { useCallback, useState } from 'react';
import type { BatchOutcome } from '@rhizome/contracts/api/batch';

/** A bulk action running as queue tasks: what it does, and the tasks it was split into. */
export interface TaskBulkJob {
  kind?: 'tasks';
  title: string;
  taskIds: string[];
}

/**
 * A bulk action the browser sends a part at a time (endpoints that answer each item at once): the items,
 * what the action needs besides them, and the outcomes so far, so a reload goes on where it stopped.
 */
export interface RequestBulkJob {
  kind: 'requests';
  title: string;
  action: string;
  /** What the action takes besides the items (a tag, a domain). */
  options: Record<string, string>;
  ids: string[];
  outcomes: BatchOutcome[];
}

/** A bulk action on sources the server works through as one task, followed by its job id. */
export interface SourceTaskBulkJob {
  kind: 'source-job';
  title: string;
  jobId: string;
}

export type BulkJob = TaskBulkJob | RequestBulkJob | SourceTaskBulkJob;

function read(storageKey: string): BulkJob | null {
  try {
    const stored = window.localStorage.getItem(storageKey);
    return stored ? (JSON.parse(stored) as BulkJob) : null;
  } catch {
    return null;
  }
}

/**
 * The bulk job of one list, kept in the browser so its progress dialog opens again after a reload until
 * the person closes it. Queue tasks run on the server whether or not the dialog is open; a job sent in
 * parts goes on from its last finished part.
 */
export function useBulkJob(storageKey: string) {
  const [job, setJob] = useState<BulkJob | null>(() => read(storageKey));
  const start = useCallback(
    (next: BulkJob) => {
      window.localStorage.setItem(storageKey, JSON.stringify(next));
      setJob(next);
    },
    [storageKey],
  );
  const dismiss = useCallback(() => {
    window.localStorage.removeItem(storageKey);
    setJob(null);
  }, [storageKey]);
  return { job, start, dismiss };
}

/** Splits operations into batches of at most `size` (one queue task each). */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
