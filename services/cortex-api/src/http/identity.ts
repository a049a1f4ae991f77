import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Verifier } from '@rhizome/auth';
import { ApiError, ErrorCode } from '@rhizome/contracts/errors';
import { requestState } from './context.ts';

export const edgeTokenHeader = 'x-auth-edge-token';

/**
 * `embedded`: no proxy in front, so this hook behaves exactly like nginx's auth_request (401 with the
 * proxy's minimal body). `direct`: the API server of the stack, which trusts X-Auth-User only with the
 * edge secret and otherwise verifies credentials itself (401 AUTH_REQUIRED).
 */
export type AuthMode = 'embedded' | 'direct';

export interface IdentityOptions {
  verifier: Verifier;
  edgeToken: string;
  mode: AuthMode;
  isPublic: (method: string, path: string) => boolean;
}

export function identityMiddleware(options: IdentityOptions): RequestHandler {
  const edgeToken = Buffer.from(options.edgeToken);
  const fromProxy = (header: string | string[] | undefined) =>
    typeof header === 'string' && header.length === edgeToken.length && timingSafeEqual(Buffer.from(header), edgeToken);

  return async (req, res, next) => {
    const state = requestState(req);
    if (fromProxy(req.headers[edgeTokenHeader])) {
      const forwardedAddress = req.headers['x-real-ip'];
      if (typeof forwardedAddress === 'string' && forwardedAddress) state.clientAddress = forwardedAddress;
      const user = req.headers['x-auth-user'];
      state.identity = typeof user === 'string' && user ? { username: user, method: 'proxy' } : null;
    } else {
      state.identity = await options.verifier.verify({
        cookie: req.headers.cookie,
        authorization: req.headers.authorization,
      });
    }
    if (state.identity || options.isPublic(req.method, req.path)) {
      next();
      return;
    }
    if (options.mode === 'embedded') {
      res.status(401).json({ error: 'authentication_required' });
      return;
    }
    next(
      new ApiError(401, ErrorCode.authRequired, 'Authentication required: no verified identity reached the API server'),
    );
  };
}
