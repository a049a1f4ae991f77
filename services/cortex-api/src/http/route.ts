import type { TSchema } from '@sinclair/typebox';
import type { NextFunction, Request, Response, Router } from 'express';
import type { BodyOf, Endpoint, ParamsOf, QueryOf } from '@rhizome/contracts/endpoint';
import type { Platform } from '@rhizome/core/platform';
import { jsonBodyReader, publicBodyLimitBytes, refuseNonJsonBody } from './json-body.ts';
import { RequestScope, requestedDatabase } from './request-scope.ts';
import { compileValidator } from './validation.ts';

export interface HandlerInput<E> {
  body: BodyOf<E>;
  query: QueryOf<E>;
  params: ParamsOf<E>;
  /** The request's database and the features' services for it. */
  scope: RequestScope;
  req: Request;
  res: Response;
}

/**
 * A handler returns the success body; `undefined` sends the endpoint's status with no body. A handler
 * that streams or sets its own body writes to `res` itself and the return value is ignored.
 */
export type Handler<E> = (input: HandlerInput<E>) => Promise<unknown> | unknown;

/**
 * Runs before validation, for rules that win over any body (e.g. 409 for setup after setup, "any"
 * request), and to receive a multipart upload before its fields are validated.
 */
export type Precheck = (req: Request, res: Response) => void | Promise<void>;

/** Endpoints mounted so far; the OpenAPI document is built from this list. */
export class RouteTable {
  readonly mounted: Endpoint[] = [];
  private readonly readJson: (req: Request, res: Response) => Promise<void>;
  private readonly readPublicJson = jsonBodyReader(publicBodyLimitBytes);

  constructor(
    private readonly router: Router,
    private readonly platform: Platform,
  ) {
    this.readJson = jsonBodyReader(platform.settings.get().batching.max_request_body_mb * 1024 * 1024);
  }

  add<E extends Endpoint<TSchema | undefined, TSchema | undefined, TSchema | undefined>>(
    spec: E,
    handler: Handler<E>,
    precheck?: Precheck,
  ): void {
    const validateBody = spec.body
      ? compileValidator<BodyOf<E>>(spec.body, spec.consumes === 'multipart/form-data' ? 'form' : 'body')
      : undefined;
    const validateQuery = spec.query ? compileValidator<QueryOf<E>>(spec.query, 'query') : undefined;
    const validateParams = spec.params ? compileValidator<ParamsOf<E>>(spec.params, 'path') : undefined;
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    // Multipart bodies are received by the precheck; anything else is JSON, read only once the precheck
    // (the rate limit of the public endpoints) let the request through.
    const readBody =
      spec.consumes === 'multipart/form-data' ? undefined : spec.public ? this.readPublicJson : this.readJson;
    // A request without a body means "no fields" when the body has no required field (e.g. a pause reason).
    const emptyBodyDefault = spec.body && !(spec.body as { required?: string[] }).required?.length ? {} : undefined;
    this.mounted.push(spec as Endpoint);
    let reserved: Map<string, Set<string>> | undefined;
    this.router[spec.method.toLowerCase() as 'get'](
      expressPath,
      async (req: Request, res: Response, next: NextFunction) => {
        // Known once every route is mounted: `/workflows/executions` is never the workflow 'executions'.
        reserved ??= literalSiblings(
          spec.path,
          this.mounted.map((other) => other.path),
        );
        for (const [name, literals] of reserved) if (literals.has(String(req.params[name]))) return next('route');
        if (readBody) refuseNonJsonBody(req);
        await precheck?.(req, res);
        await readBody?.(req, res);
        const input = {
          body: (validateBody ? validateBody(req.body ?? emptyBodyDefault) : undefined) as BodyOf<E>,
          query: (validateQuery ? validateQuery({ ...(req.query as object) }) : {}) as QueryOf<E>,
          params: (validateParams ? validateParams({ ...req.params }) : {}) as ParamsOf<E>,
          scope: new RequestScope(this.platform, requestedDatabase(req)),
          req,
          res,
        };
        const result = await handler(input);
        if (res.headersSent) return;
        if (result === undefined) res.status(spec.status).end();
        else res.status(spec.status).json(result);
      },
    );
  }
}

const isParam = (segment: string) => segment.startsWith('{');

/**
 * For each `{param}` of `path`, the literal segments other routes have in its place under the same prefix:
 * values the parameter never takes, so a literal path wins over `{id}` whatever the order routes were added in.
 */
export function literalSiblings(path: string, paths: readonly string[]): Map<string, Set<string>> {
  const segments = path.split('/');
  const siblings = new Map<string, Set<string>>();
  segments.forEach((segment, index) => {
    if (!isParam(segment)) return;
    const literals = new Set<string>();
    for (const other of paths.map((candidate) => candidate.split('/'))) {
      if (other.length <= index || isParam(other[index])) continue;
      const samePrefix = segments
        .slice(0, index)
        .every((own, at) => (isParam(own) ? isParam(other[at]) : own === other[at]));
      if (samePrefix) literals.add(other[index]);
    }
    siblings.set(segment.slice(1, -1), literals);
  });
  return siblings;
}
