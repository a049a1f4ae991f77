import type { Request, Response } from 'express';

/** How often an idle stream sends a comment line, so proxies and load balancers keep it open. */
const heartbeatMs = 15_000;

export interface EventStream {
  /** Writes one frame `data: <json>` (the event's name is its `type` field, no `event:` line). */
  send(json: string): void;
  /** Ends the stream (idempotent). */
  close(): void;
  /** Called once when the stream ends, by `close()` or because the client went away. */
  onClose(listener: () => void): void;
  readonly closed: boolean;
}

/** Starts a `text/event-stream` response with heartbeats; nothing is buffered by the proxy in front. */
export function openEventStream(req: Request, res: Response): EventStream {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  const listeners: (() => void)[] = [];
  let closed = false;
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const listener of listeners) listener();
  };
  res.on('close', finish);
  return {
    send(json) {
      if (!closed) res.write(`data: ${json}\n\n`);
    },
    close() {
      if (closed) return;
      finish();
      res.end();
    },
    onClose(listener) {
      listeners.push(listener);
    },
    get closed() {
      return closed;
    },
  };
}
