import type { Static, TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One endpoint of the API: the request schemas the server validates and the response it documents.
 * The OpenAPI document is assembled from the endpoints the server mounts, so what is served and what
 * is documented cannot drift apart.
 */
export interface Endpoint<
  B extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  P extends TSchema | undefined = TSchema | undefined,
  R extends TSchema | undefined = TSchema | undefined,
> {
  method: HttpMethod;
  /** Path under /api/v1, with `{param}` placeholders as in the OpenAPI document. */
  path: string;
  tag: string;
  summary: string;
  /** Reachable without credentials (docs/api-conventions.md#authentication). */
  public?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  /** Success status. */
  status: number;
  /** Success body; omitted for 204 and for non-JSON bodies. */
  response?: R;
  /** A multipart form instead of JSON: `body` describes its text fields (coerced from strings), `files` its file field. */
  consumes?: 'multipart/form-data';
  files?: { field: string; multiple: boolean };
  /** Media type of a non-JSON success body (a ZIP, markdown). */
  produces?: string;
  /** Error statuses the endpoint documents. */
  errors?: number[];
}

export type BodyOf<E> =
  E extends Endpoint<infer B, TSchema | undefined, TSchema | undefined>
    ? B extends TSchema
      ? Static<B>
      : undefined
    : never;
export type QueryOf<E> =
  E extends Endpoint<TSchema | undefined, infer Q, TSchema | undefined>
    ? Q extends TSchema
      ? Static<Q>
      : Record<string, never>
    : never;
export type ParamsOf<E> =
  E extends Endpoint<TSchema | undefined, TSchema | undefined, infer P>
    ? P extends TSchema
      ? Static<P>
      : Record<string, never>
    : never;

/** The success body's type, so a client is typed by the same contract the server documents. */
export type ResponseOf<E> = E extends { response?: infer R } ? (R extends TSchema ? Static<R> : undefined) : never;

export function endpoint<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
  R extends TSchema | undefined = undefined,
>(spec: Endpoint<B, Q, P, R>): Endpoint<B, Q, P, R> {
  return spec;
}
