import got, { type Method } from 'got';
import {
  ErrorCode,
  DomainError,
  BadInput,
  NotFound,
  Unauthenticated,
  Forbidden,
  Expired,
  Unavailable,
} from '@rhizome/contracts/errors';
import { checkUrl, pinnedLookup, UrlFetchError, UrlRefusedError, vetHost } from '../sources/index.ts';

/** Where and how to reach one registry. */
export interface RegistryTarget {
  /** The registry's address, e.g. `https://registry.example` (settings `registry.url`, REGISTRY_URL, or per call). */
  url: string;
  /** Prefix of its API (settings `registry.api_path`). */
  apiPath: string;
  timeoutMs: number;
  /** Sent as a bearer token when set. */
  token: string | null;
  /** `web.allow_private_addresses`: the outbound-address policy URL import uses. */
  allowPrivate: boolean;
}

export interface RegistryRequest {
  method: Method;
  path: string;
  searchParams?: Record<string, string | number | boolean>;
  json?: unknown;
  form?: FormData;
  timeoutMs?: number;
  /** Raw bytes instead of JSON, at most this many. */
  maxBytes?: number;
}

export interface RegistryResponse {
  status: number;
  /** Parsed JSON (null when the body was not JSON), or the bytes when `maxBytes` was given. */
  body: unknown;
}

/** Whatever else went wrong talking to the registry. */
export function upstreamError(cause?: unknown): Unavailable {
  const error = new Unavailable('Upstream registry request failed', null, ErrorCode.registryUpstreamError);
  // For the log line (the client sees the envelope only): why, e.g. "connect ECONNREFUSED 127.0.0.1:443".
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** What each mapped upstream status means, per request (401, 403, 404, 408 and 410 as expired, any other unavailable). */
export interface StatusMeanings {
  unauthorized?: string;
  forbidden?: string;
  notFound?: { resource_type: string; identifier: string };
}

/** The upstream status mapping of docs/api-conventions.md#package-registry; any other status is an upstream failure. */
export function mapUpstreamStatus(status: number, meanings: StatusMeanings = {}): DomainError {
  switch (status) {
    case 401:
      return new Unauthenticated(
        meanings.unauthorized ??
          'The registry requires authentication: log in with /registry/auth/device or /registry/auth/login',
      );
    case 403:
      return new Forbidden(meanings.forbidden ?? 'The registry refused: insufficient permissions');
    case 404: {
      const missing = meanings.notFound ?? { resource_type: 'registry_resource', identifier: '' };
      return NotFound.resource(missing.resource_type, missing.identifier);
    }
    case 408:
    case 410:
      return new Expired('The registry request expired');
    default:
      return upstreamError();
  }
}

/**
 * One request to a registry with got: the address vetted by the URL-import policy and the connection
 * pinned to the vetted addresses, no redirects followed, a timeout, and the status left to the caller.
 * A refused address is 400; a network failure, timeout or oversized body is an upstream failure.
 */
export async function registryRequest(target: RegistryTarget, request: RegistryRequest): Promise<RegistryResponse> {
  const timeoutMs = request.timeoutMs ?? target.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  const base = `${target.url.replace(/\/+$/, '')}${target.apiPath.replace(/\/+$/, '')}`;
  let dnsLookup;
  let url: URL;
  try {
    url = checkUrl(`${base}${request.path}`);
    dnsLookup = pinnedLookup(
      await vetHost(url, { allowPrivate: target.allowPrivate, timeoutMs, maxBytes: 0, maxRedirects: 0 }, signal),
    );
  } catch (error) {
    if (error instanceof UrlRefusedError)
      throw BadInput.field(`Registry address refused: ${error.message}`, 'registry_url');
    if (error instanceof UrlFetchError) throw upstreamError(error);
    throw error;
  }
  const raw = request.maxBytes !== undefined;
  try {
    const pending = got(url, {
      method: request.method,
      dnsLookup,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: timeoutMs },
      searchParams: request.searchParams,
      json: request.json,
      body: request.form,
      responseType: 'buffer',
      headers: {
        'user-agent': 'rhizome/1.0',
        accept: raw ? 'application/zip, application/octet-stream' : 'application/json',
        ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      },
    });
    if (raw) {
      pending.on('downloadProgress', ({ transferred }) => {
        if (transferred > request.maxBytes!) pending.cancel('the package exceeds batching.max_upload_bytes');
      });
    }
    const response = await pending;
    return {
      status: response.statusCode,
      body: raw && response.statusCode < 300 ? response.body : parseJson(response.body),
    };
  } catch (error) {
    throw upstreamError(error);
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
