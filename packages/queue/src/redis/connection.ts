import { Redis, ReplyError } from 'ioredis';
import { QueueUnavailableError } from '../task.ts';

/**
 * A connection that fails fast while Redis is away instead of queueing commands: no offline queue,
 * commands in flight when the socket drops are rejected at the first reconnect attempt, a server
 * that stops answering times out, and reconnecting goes on in the background. Auto-pipelining
 * batches the commands of one tick.
 */
export async function openConnection(url: string): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 5_000,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  // Failures reach the caller through the command that hit them.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw unavailable(error);
  }
  return client;
}

/** Redis replies that mean "not now" rather than a bug in the command. */
const unavailableReplies = /^(LOADING|BUSY|MASTERDOWN|OOM|READONLY|CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b/;
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const connectionMessages =
  /Stream isn't writeable|Connection is closed|Command timed out|Reached the max retries per request limit|connect ETIMEDOUT/;

/** Turns a failure to reach Redis into QueueUnavailableError; anything else passes through unchanged. */
export function unavailable(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof QueueUnavailableError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const connection =
    error instanceof ReplyError
      ? unavailableReplies.test(error.message)
      : (typeof code === 'string' && connectionCodes.has(code)) || connectionMessages.test(error.message);
  return connection ? new QueueUnavailableError(`The task queue's Redis is unavailable: ${error.message}`) : error;
}
