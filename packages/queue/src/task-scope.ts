import { AsyncLocalStorage } from 'node:async_hooks';

/** Receives an error that escaped a task handler's own error handling. */
export type EscapeHandler = (error: unknown) => void;

const scopes = new AsyncLocalStorage<EscapeHandler>();
let guardInstalled = false;

/**
 * Runs `work` (a task handler) so that an error escaping it — thrown in a timer or I/O callback, an
 * `'error'` event nobody listens to on a resource it opened, a promise it dropped — reaches `onEscape`
 * instead of ending the process. The async context of the handler follows every callback it schedules,
 * so the process-wide hook below knows which task the error belongs to.
 */
export function runInTaskScope<T>(onEscape: EscapeHandler, work: () => Promise<T>): Promise<T> {
  installGuard();
  return scopes.run(onEscape, work);
}

function installGuard(): void {
  if (guardInstalled) return;
  guardInstalled = true;
  process.on('uncaughtException', (error, origin) => {
    const onEscape = scopes.getStore();
    if (onEscape) return onEscape(error);
    // Not a task's error: another listener decides, or the process ends as it would without this hook.
    if (process.listenerCount('uncaughtException') > 1) return;
    console.error(origin === 'unhandledRejection' ? 'Unhandled promise rejection:' : 'Uncaught exception:', error);
    process.exit(1);
  });
}
