import { Unavailable } from '@rhizome/contracts/errors';

/** Socket errors and server codes meaning the server cannot be reached now, not that a statement is wrong. */
const lostCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
const lostMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

/**
 * A failure to reach the PostgreSQL server as `Unavailable` (503 with the API's error envelope): the
 * request may be sent again once the server is back, which the pool notices by itself on its next
 * connection. Any other error passes unchanged.
 */
export function serverUnavailable(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof Unavailable) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  // 08…: connection exceptions; 57P01-57P03: the server is shutting down, crashed or not yet accepting.
  const lost = lostCodes.has(code) || /^(08|57P0[123])/.test(code) || lostMessages.test(error.message);
  if (!lost) return error;
  const unavailable = new Unavailable('The PostgreSQL server is not reachable: try again in a moment');
  unavailable.cause = error;
  return unavailable;
}
