import { useEffect, useRef } from 'react';

/** The review queue's keys and what each does; `?` opens this list. */
export const queueShortcuts = [
  { keys: ['m'], action: 'merge', description: 'Merge the pair (keeping the chosen entity)' },
  { keys: ['k'], action: 'swap', description: 'Keep the other entity instead' },
  { keys: ['n'], action: 'reject', description: 'Not duplicates: never propose this pair again' },
  { keys: ['s', '→'], action: 'skip', description: 'Skip to the next pair (it comes back later)' },
  { keys: ['←'], action: 'back', description: 'Back to the previous pair' },
  { keys: ['u'], action: 'undo', description: 'Undo the merge just made' },
  { keys: ['?'], action: 'help', description: 'Show these shortcuts' },
] as const;

export type QueueAction = (typeof queueShortcuts)[number]['action'];

const keyNames: Record<string, string> = { ArrowRight: '→', ArrowLeft: '←' };
const actionOfKey = new Map<string, QueueAction>(
  queueShortcuts.flatMap(({ keys, action }) => keys.map((key) => [key, action] as const)),
);

/** Widgets that move with the arrow keys themselves (a tab list, a radio group, a menu). */
const arrowWidgets = '[role="tab"], [role="radio"], [role="slider"], [role="option"], [role="menuitem"]';

/** Whether the key belongs to what has the focus (typing in a field, arrows in a tab list, a dialog) rather than to the queue. */
function focusOwnsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  if (target instanceof HTMLInputElement && !['button', 'checkbox', 'submit', 'reset'].includes(target.type))
    return true;
  if (target.closest('[role="dialog"]')) return true;
  return key.startsWith('Arrow') && target.closest(arrowWidgets) !== null;
}

/** Calls `run` with the queue action of a key pressed anywhere on the page, while `enabled`. */
export function useQueueShortcuts(run: (action: QueueAction) => void, enabled: boolean): void {
  // The latest handler without re-subscribing on every render.
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const action = actionOfKey.get(keyNames[event.key] ?? event.key.toLowerCase());
      if (!action || focusOwnsKey(event.target, event.key)) return;
      event.preventDefault();
      latest.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
