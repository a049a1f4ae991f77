import { RhizomeClient } from '@rhizome/client';

/** Dispatched when a call answers 401: the session ended (sign-out elsewhere, password change). */
export const sessionEndedEvent = 'rhizome:session-ended';

/** The one API client of the interface; it uses the session cookie of this origin. */
export const api = new RhizomeClient({
  onUnauthorized: () => window.dispatchEvent(new Event(sessionEndedEvent)),
});

/** A failure's message as a person should read it. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
