import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Identity, Verifier } from '@rhizome/auth';

const verifyPath = '/api/v1/auth/verify';
const unauthorized = JSON.stringify({ error: 'authentication_required' });
const unauthorizedHeaders = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(unauthorized)) };

/**
 * The proxy's auth_request target: 200 with X-Auth-User, or 401. Plain node:http and the shared
 * verifier only: no framework, no domain code, so it answers in microseconds.
 */
export function createAuthVerify(deps: { verifier: Verifier }): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' || (req.url !== verifyPath && !req.url?.startsWith(`${verifyPath}?`))) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'NOT_FOUND', message: 'Only GET /api/v1/auth/verify is served here', details: null }));
      return;
    }
    const answer = (identity: Identity | null) => {
      if (identity) res.writeHead(200, { 'X-Auth-User': identity.username, 'Content-Length': '0' }).end();
      else res.writeHead(401, unauthorizedHeaders).end(unauthorized);
    };
    const refuse = () => res.writeHead(401, unauthorizedHeaders).end(unauthorized);
    try {
      const identity = deps.verifier.verify({ cookie: req.headers.cookie, authorization: req.headers.authorization });
      if (identity instanceof Promise) identity.then(answer, refuse);
      else answer(identity);
    } catch {
      refuse();
    }
  };
}
