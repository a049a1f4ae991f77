import { useCallback, useEffect, useState } from 'react';
import type { Draft } from './workflow-draft.ts';

interface History {
  past: Draft[];
  present: Draft;
  future: Draft[];
  /** The kind of the last change: a run of changes of one kind (typing in one field) is undone at once. */
  lastKind: string | null;
  /** Counts undos and redos: forms that keep their own text start again from the draft when it changes. */
  revision: number;
}

const limit = 200;

export interface DraftHistory {
  draft: Draft;
  /** Applies a change; changes of the same `kind` in a row make one step of undo. */
  change: (next: (draft: Draft) => Draft, kind?: string) => void;
  undo: () => void;
  redo: () => void;
  canUndo: boolean;
  canRedo: boolean;
  revision: number;
}

/**
 * The draft with its undo and redo. It starts from `saved` and starts again (history cleared) whenever
 * `saved` changes identity while there is nothing unsaved, e.g. after a save or a change made elsewhere.
 */
export function useDraftHistory(saved: Draft, dirty: (draft: Draft) => boolean): DraftHistory {
  const [history, setHistory] = useState<History>({
    past: [],
    present: saved,
    future: [],
    lastKind: null,
    revision: 0,
  });
  const present = history.present;
  useEffect(() => {
    if (!dirty(present))
      setHistory((current) => ({
        past: [],
        present: saved,
        future: [],
        lastKind: null,
        revision: current.revision + 1,
      }));
    // Only a new baseline restarts the history; the draft's own edits do not.
  }, [saved]);

  const change = useCallback((next: (draft: Draft) => Draft, kind?: string) => {
    setHistory((current) => {
      const changed = next(current.present);
      if (changed === current.present) return current;
      const merge = kind !== undefined && kind === current.lastKind;
      return {
        past: merge ? current.past : [...current.past, current.present].slice(-limit),
        present: changed,
        future: [],
        lastKind: kind ?? null,
        revision: current.revision,
      };
    });
  }, []);
  const undo = useCallback(
    () =>
      setHistory((current) =>
        current.past.length
          ? {
              past: current.past.slice(0, -1),
              present: current.past[current.past.length - 1],
              future: [current.present, ...current.future],
              lastKind: null,
              revision: current.revision + 1,
            }
          : current,
      ),
    [],
  );
  const redo = useCallback(
    () =>
      setHistory((current) =>
        current.future.length
          ? {
              past: [...current.past, current.present],
              present: current.future[0],
              future: current.future.slice(1),
              lastKind: null,
              revision: current.revision + 1,
            }
          : current,
      ),
    [],
  );
  return {
    draft: present,
    change,
    undo,
    redo,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    revision: history.revision,
  };
}
