import type { Response } from 'express';
import { RateLimiter, type AccountResult } from '@rhizome/auth';
import { authEndpoints as api } from '@rhizome/contracts/api/auth';
import { ApiError } from '@rhizome/contracts/errors';
import { requestState } from '../http/context.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountAuthRoutes(routes: RouteTable, deps: CortexDeps): void {
  const { account } = deps;
  const localAuth = () => deps.platform.settings.get().local_auth;
  const loginLimiter = new RateLimiter(() => ({ max: localAuth().login_max_attempts, windowSeconds: localAuth().rate_limit_window_seconds }));
  const setupLimiter = new RateLimiter(() => ({ max: localAuth().setup_max_attempts, windowSeconds: localAuth().rate_limit_window_seconds }));

  const limit = (limiter: RateLimiter, what: string, client: string, res: Response) => {
    const retryAfter = limiter.hit(client);
    if (retryAfter === 0) return;
    res.setHeader('Retry-After', String(retryAfter));
    throw new ApiError(429, 'HTTP_429', `Too many ${what} attempts; try again in ${retryAfter} s`, { retry_after_seconds: retryAfter });
  };
  const send = <T>(res: Response, result: AccountResult<T>) => {
    if (result.setCookie) res.setHeader('Set-Cookie', result.setCookie);
    return result.body ?? undefined;
  };
  const username = (req: Parameters<typeof requestState>[0]) => requestState(req).identity!.username;

  routes.add(api.status, ({ req }) => account.status(req.headers.cookie));
  routes.add(api.setup, async ({ body, req, res }) => {
    limit(setupLimiter, 'setup', requestState(req).clientAddress, res);
    return send(res, await account.setup(body.username, body.password));
  });
  routes.add(api.login, async ({ body, req, res }) => {
    limit(loginLimiter, 'login', requestState(req).clientAddress, res);
    return send(res, await account.login(body.username, body.password));
  });
  routes.add(api.logout, async ({ res }) => send(res, await account.logout()));
  routes.add(api.verify, ({ req, res }) => {
    const identity = requestState(req).identity;
    if (!identity) throw ApiError.http(401, 'Not authenticated');
    res.setHeader('X-Auth-User', identity.username);
    res.status(200).end();
  });
  routes.add(api.me, ({ req }) => ({ username: username(req) }));
  routes.add(api.password, async ({ body, res }) => send(res, await account.changePassword(body.old_password, body.new_password)));
  routes.add(api.username, async ({ body, res }) => send(res, await account.changeUsername(body.password, body.new_username)));
  routes.add(api.createKey, ({ body }) => account.createKey(body.name));
  routes.add(api.listKeys, () => account.listKeys());
  routes.add(api.revokeKey, ({ params }) => account.revokeKey(params.key_id));
}
