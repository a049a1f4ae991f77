import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Identity, Verifier } from '@rhizome/auth';

const verifyPath = '/api/v1/auth/verify';
const unauthorized = JSON.stringify({ error: 'authentication_required' });
const unauthorizedHeaders = {
  'Content-Type': 'application/json',
  'Content-Length': String(Buffer.byteLength(unauthorized)),
};

/**
 * The proxy's auth_request target: 200 with X-Auth-User, or 401. Plain node:http and the shared
 * verifier only: no framework, no domain code, so it answers in microseconds.
 */
export function createAuthVerify(deps: { verifier: Verifier }): RequestListener {
  const acceptedHeaders = acceptedHeadersCache();
  // No closure is created per request on the synchronous path: under tsx every closure also costs a
  // name definition, and this handler runs for every proxied request.
  const answer = (res: ServerResponse, identity: Identity | null) => {
    if (identity) res.writeHead(200, acceptedHeaders(identity.username)).end();
    else refuse(res);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' || (req.url !== verifyPath && !req.url?.startsWith(`${verifyPath}?`))) {
      res
        .writeHead(404, { 'Content-Type': 'application/json' })
        .end(
          JSON.stringify({ error: 'NOT_FOUND', message: 'Only GET /api/v1/auth/verify is served here', details: null }),
        );
      return;
    }
    try {
      const identity = deps.verifier.verifyHeaders(req.headers.cookie, req.headers.authorization);
      if (identity instanceof Promise)
        identity.then(
          (settled) => answer(res, settled),
          () => refuse(res),
        );
      else answer(res, identity);
    } catch {
      refuse(res);
    }
  };
}

function refuse(res: ServerResponse): void {
  res.writeHead(401, unauthorizedHeaders).end(unauthorized);
}

/** The 200 response's header list, rebuilt only when the account's username changes. */
function acceptedHeadersCache(): (username: string) => string[] {
  let headers = ['X-Auth-User', '', 'Content-Length', '0'];
  return (username) => {
    if (headers[1] !== username) headers = ['X-Auth-User', username, 'Content-Length', '0'];
    return headers;
  };
}
