import type { Request, Response } from 'express';
import { RateLimiter, type AccountResult } from '@rhizome/auth';
import { authEndpoints as api } from '@rhizome/contracts/api/auth';
import { ApiError } from '@rhizome/contracts/errors';
import { requestState } from '../http/context.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountAuthRoutes(routes: RouteTable, deps: CortexDeps): void {
  const { account } = deps;
  const localAuth = () => deps.platform.settings.get().local_auth;
  const loginLimiter = new RateLimiter(() => ({
    max: localAuth().login_max_attempts,
    windowSeconds: localAuth().rate_limit_window_seconds,
  }));
  const setupLimiter = new RateLimiter(() => ({
    max: localAuth().setup_max_attempts,
    windowSeconds: localAuth().rate_limit_window_seconds,
  }));
  const keyLimiter = new RateLimiter(() => ({
    max: localAuth().api_key_create_max_attempts,
    windowSeconds: localAuth().rate_limit_window_seconds,
  }));

  const limit = (limiter: RateLimiter, what: string, client: string, res: Response) => {
    const retryAfter = limiter.hit(client);
    if (retryAfter === 0) return;
    res.setHeader('Retry-After', String(retryAfter));
    throw new ApiError(429, 'HTTP_429', `Too many ${what} attempts; try again in ${retryAfter} s`, {
      retry_after_seconds: retryAfter,
    });
  };
  const send = <T>(res: Response, result: AccountResult<T>) => {
    if (result.setCookie) res.setHeader('Set-Cookie', result.setCookie);
    return result.body ?? undefined;
  };
  const username = (req: Request) => requestState(req).identity!.username;

  routes.add(api.status, ({ req }) => account.status(req.headers.cookie));
  const rateLimited = (limiter: RateLimiter, what: string) => (req: Request, res: Response) =>
    limit(limiter, what, requestState(req).clientAddress, res);
  // The state tables answer 409 to "any" setup once set up and to "any" login before setup: checked before the body,
  // and before the rate limit, as an attempt that cannot succeed must neither count nor be refused as one.
  routes.add(
    api.setup,
    async ({ body, res }) => send(res, await account.setup(body.username, body.password)),
    (req, res) => {
      if (account.isSetUp()) throw ApiError.conflict('The account is already set up');
      rateLimited(setupLimiter, 'setup')(req, res);
    },
  );
  routes.add(
    api.login,
    async ({ body, res }) => send(res, await account.login(body.username, body.password)),
    (req, res) => {
      if (!account.isSetUp()) throw new ApiError(409, 'HTTP_409', 'Setup has not been run');
      rateLimited(loginLimiter, 'login')(req, res);
    },
  );
  routes.add(api.logout, async ({ res }) => send(res, await account.logout()));
  routes.add(api.verify, ({ req, res }) => {
    const identity = requestState(req).identity;
    if (!identity) throw ApiError.http(401, 'Not authenticated');
    res.setHeader('X-Auth-User', identity.username);
    res.status(200).end();
  });
  routes.add(api.me, ({ req }) => ({ username: username(req) }));
  routes.add(api.password, async ({ body, res }) =>
    send(res, await account.changePassword(body.old_password, body.new_password)),
  );
  routes.add(api.username, async ({ body, res }) =>
    send(res, await account.changeUsername(body.password, body.new_username)),
  );
  routes.add(api.createKey, ({ body }) => account.createKey(body.name), rateLimited(keyLimiter, 'API key creation'));
  routes.add(api.listKeys, () => account.listKeys());
  routes.add(api.revokeKey, ({ params }) => account.revokeKey(params.key_id));
}
