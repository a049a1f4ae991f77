import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Identity } from '@rhizome/auth';
import type { Platform } from '@rhizome/core/platform';
import { requestState } from '../http/context.ts';
import { mcpModeHeader, mcpServerExtractionHeader } from '@rhizome/contracts/api/mcp';
import { MissedAnnouncements } from './missed-announcements.ts';
import { createMcpServer } from './server.ts';
import type { McpSessionOptions } from './tool.ts';
import { refuseUnsafeJson } from '../http/json-guard.ts';

interface Session {
  transport: StreamableHTTPServerTransport;
  announcements: MissedAnnouncements;
  /** Who opened it (see `ownerOf`): a session is only ever used by the identity that opened it. */
  owner: string;
  lastSeen: number;
}

const idleSessionMs = 60 * 60_000;
const maxSessions = 500;

/**
 * The identity a session belongs to: the API key that opened it (another key of the same account is another
 * agent), else the account as the cookie or the proxy names it.
 */
function ownerOf(identity: Identity | null): string {
  if (!identity) return '';
  return identity.keyId ? `key:${identity.keyId}` : `${identity.method}:${identity.username}`;
}

/** What an initialize request opens its session with; null when one of its headers says nothing it can mean. */
function sessionOptions(headers: Request['headers']): McpSessionOptions | null {
  const mode = headers[mcpModeHeader];
  const extraction = headers[mcpServerExtractionHeader];
  if (mode !== undefined && mode !== 'read' && mode !== 'write') return null;
  if (extraction !== undefined && extraction !== 'true' && extraction !== 'false') return null;
  return { mode, autoExtract: extraction === undefined ? undefined : extraction === 'true' };
}

function refuse(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ error, message, details: null });
}

/**
 * The Streamable HTTP transport at /api/v1/mcp: POST carries JSON-RPC (an `initialize` opens a session),
 * GET opens the session's event stream, DELETE ends it. Mounted behind the API's authentication, so every
 * request carries a verified identity; a session answers only the identity that opened it.
 */
export function mcpRouter(platform: Platform): Router {
  const sessions = new Map<string, Session>();
  const sweep = setInterval(() => {
    for (const session of sessions.values())
      if (Date.now() - session.lastSeen > idleSessionMs) void session.transport.close();
  }, 60_000);
  sweep.unref();

  const router = express.Router();
  router.use(
    express.json({ limit: `${platform.settings.get().batching.max_request_body_mb}mb`, verify: refuseUnsafeJson }),
  );
  router.all('/', async (req: Request, res: Response) => {
    const owner = ownerOf(requestState(req).identity);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session || session.owner !== owner)
        return refuse(res, 404, 'NOT_FOUND', `MCP session '${id}' not found: initialize a new one`);
      session.lastSeen = Date.now();
      if (req.method === 'GET') session.announcements.watchStream(res);
      return session.transport.handleRequest(req, res, req.body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      return refuse(
        res,
        400,
        'VALIDATION_ERROR',
        'No MCP session: send an initialize request first (POST without mcp-session-id)',
      );
    }
    const options = sessionOptions(req.headers);
    if (!options)
      return refuse(
        res,
        422,
        'VALIDATION_FAILED',
        `${mcpModeHeader} must be "read" or "write", ${mcpServerExtractionHeader} "true" or "false"`,
      );
    if (sessions.size >= maxSessions)
      return refuse(res, 503, 'HTTP_503', `Too many open MCP sessions (${maxSessions}); end unused ones with DELETE`);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, announcements, owner, lastSeen: Date.now() });
      },
    });
    const announcements = new MissedAnnouncements(transport);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(platform, options).connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return router;
}
