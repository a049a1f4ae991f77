import type { Response } from 'express';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const toolsChanged = 'notifications/tools/list_changed';

/**
 * A client opens a session's event stream (GET) only after it has initialized it, and the transport drops
 * a notification sent while no stream is open: an agent connecting just before `mcp.mode` switches would
 * never hear that its tools changed. This remembers such a missed announcement and makes it again once the
 * session's stream is open.
 */
export class MissedAnnouncements {
  #streams = 0;
  #missed = false;

  constructor(private readonly transport: StreamableHTTPServerTransport) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (this.#streams === 0 && options?.relatedRequestId === undefined && isToolsChanged(message))
        this.#missed = true;
      return send(message, options);
    };
  }

  /** Follows a GET of the session: once its event stream answers, a missed announcement is made on it. */
  watchStream(res: Response): void {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      const written = writeHead(...args);
      // A session's GET answers 200 only with its event stream.
      if (res.statusCode === 200) {
        this.#streams += 1;
        res.once('close', () => (this.#streams -= 1));
        if (this.#missed) {
          this.#missed = false;
          // After the headers: the transport registered the stream before it answered with them.
          setImmediate(() => void this.transport.send({ jsonrpc: '2.0', method: toolsChanged }).catch(() => undefined));
        }
      }
      return written;
    }) as Response['writeHead'];
  }
}

function isToolsChanged(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === toolsChanged && !('id' in message);
}
