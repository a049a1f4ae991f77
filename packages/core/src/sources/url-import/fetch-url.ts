/**
 * Fetches one operator-supplied URL for source import without letting it reach internal services.
 * We resolve the host ourselves, vet every address, then make got connect to the vetted addresses only
 * (a pinned `dnsLookup`), so a second DNS answer cannot rebind the connection. The URL keeps its hostname,
 * so the Host header, TLS SNI and certificate checks are those of the name the operator gave.
 * Redirects are followed by hand and every hop goes through the same checks.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import got from 'got';
import {
  classifyAddress,
  isLocalhostName,
  isMetadataHostname,
  isPublicAddress,
  parseIpLiteral,
} from '../../net/index.ts';
import type { IpLiteral } from '../../net/index.ts';
import { parseContentType } from './decode.ts';
import { describeError } from '@rhizome/contracts/errors';

export type ResolveHost = (hostname: string) => Promise<IpLiteral[]>;

export interface FetchOptions {
  /** Budget for the whole fetch, DNS and every redirect hop included (`timeouts.url_fetch`, in ms). */
  timeoutMs: number;
  /** Budget for opening each TCP connection; defaults to the smaller of 10 s and `timeoutMs`. */
  connectTimeoutMs?: number;
  /** Most body bytes accepted, counted after decompression (`batching.max_upload_bytes`). */
  maxBytes: number;
  maxRedirects: number;
  /** Lets private, loopback and reserved addresses through; metadata endpoints stay refused. */
  allowPrivate: boolean;
  /** Which resolved addresses may be contacted when `allowPrivate` is off; defaults to `isPublicAddress`. */
  isAllowed?: (ip: string) => boolean;
  /** Resolves a hostname to all its addresses; defaults to `dns.promises.lookup` with `all: true`. */
  lookup?: ResolveHost;
  signal?: AbortSignal;
  userAgent?: string;
}

export interface FetchedDocument {
  finalUrl: string;
  status: number;
  /** Lower-case `type/subtype` from Content-Type; null when the server sent none. */
  mediaType: string | null;
  charset: string | null;
  body: Buffer;
  /** Every URL redirected to, in order; the last one is `finalUrl`. */
  redirects: string[];
}

export type UrlRefusalCode =
  'invalid_url' | 'scheme' | 'credentials_in_url' | 'private_address' | 'metadata_host' | 'too_many_redirects';

/** The URL (or a redirect) is not allowed by policy; nothing was sent to it. */
export class UrlRefusedError extends Error {
  constructor(
    readonly code: UrlRefusalCode,
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

export type UrlFetchFailureCode =
  'dns' | 'network' | 'timeout' | 'http_status' | 'too_large' | 'empty' | 'bad_redirect' | 'aborted';

/** The URL was allowed but fetching it did not produce a document. */
export class UrlFetchError extends Error {
  constructor(
    readonly code: UrlFetchFailureCode,
    readonly url: string,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'UrlFetchError';
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

type Hop =
  | { kind: 'redirect'; location: string }
  | { kind: 'document'; status: number; contentType: string | undefined; body: Buffer };

export async function fetchUrl(url: string, options: FetchOptions): Promise<FetchedDocument> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const deadlineAt = Date.now() + options.timeoutMs;
  const redirects: string[] = [];
  let current = checkUrl(url);
  try {
    for (;;) {
      const addresses = await vetHost(current, options, signal);
      const hop = await requestOnce(current, addresses, options, signal, deadlineAt - Date.now());
      if (hop.kind === 'document') {
        if (hop.body.length === 0)
          throw new UrlFetchError('empty', current.href, `${current.href} returned an empty body.`, hop.status);
        return {
          finalUrl: current.href,
          status: hop.status,
          ...parseContentType(hop.contentType),
          body: hop.body,
          redirects,
        };
      }
      if (redirects.length >= options.maxRedirects) {
        throw new UrlRefusedError(
          'too_many_redirects',
          url,
          `${url} redirected more than ${options.maxRedirects} times.`,
        );
      }
      current = checkUrl(resolveLocation(hop.location, current));
      redirects.push(current.href);
    }
  } catch (error) {
    throw explain(error, current.href, options, deadline);
  }
}

export function checkUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UrlRefusedError('invalid_url', text, `"${text}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlRefusedError(
      'scheme',
      text,
      `Only http and https URLs can be imported, not ${url.protocol.replace(/:$/, '')}.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UrlRefusedError('credentials_in_url', text, 'URLs with a user name or password in them are refused.');
  }
  return url;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new UrlFetchError('bad_redirect', base.href, `${base.href} redirected to an invalid location "${location}".`);
  }
}

export async function vetHost(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IpLiteral[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isMetadataHostname(host)) {
    throw new UrlRefusedError('metadata_host', url.href, `${host} is a cloud metadata service and is never fetched.`);
  }
  const literal = parseIpLiteral(host);
  const addresses = literal
    ? [literal]
    : isLocalhostName(host)
      ? [parseIpLiteral('127.0.0.1')!, parseIpLiteral('::1')!]
      : await resolveAll(host, url, options.lookup ?? systemLookup, signal);
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (verdict === 'metadata') {
      throw new UrlRefusedError(
        'metadata_host',
        url.href,
        `${host} points to ${address}, a cloud metadata address, which is never fetched.`,
      );
    }
    const allowed = verdict !== 'invalid' && (options.allowPrivate || (options.isAllowed ?? isPublicAddress)(address));
    if (!allowed) {
      const via = literal ? '' : ` (${host} resolves to it)`;
      throw new UrlRefusedError(
        'private_address',
        url.href,
        `${address}${via} is not a public address; private, loopback and reserved addresses are refused ` +
          `unless the setting web.allow_private_addresses is true (PATCH /settings {"web": {"allow_private_addresses": true}}).`,
      );
    }
  }
  return addresses;
}

async function resolveAll(host: string, url: URL, lookup: ResolveHost, signal: AbortSignal): Promise<IpLiteral[]> {
  let answers: IpLiteral[];
  try {
    answers = await abortable(lookup(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UrlFetchError('dns', url.href, `Could not resolve ${host}: ${(error as Error).message}`);
  }
  if (answers.length === 0) throw new UrlFetchError('dns', url.href, `Could not resolve ${host}: no addresses.`);
  // Re-parse whatever the resolver handed back so the policy and the connection see the same canonical text.
  return answers.map(({ address }) => {
    const parsed = parseIpLiteral(address);
    if (!parsed)
      throw new UrlRefusedError(
        'private_address',
        url.href,
        `${host} resolved to "${address}", which is not an IP address.`,
      );
    return parsed;
  });
}

const systemLookup: ResolveHost = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** A lookup for got that never asks DNS again: it answers with the vetted addresses only. */
export function pinnedLookup(addresses: IpLiteral[]): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    if (usable.length === 0) {
      callback(
        Object.assign(new Error(`No vetted IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }),
        '',
        0,
      );
    } else if (lookupOptions.all) {
      callback(
        null,
        usable.map(({ address, family: f }) => ({ address, family: f })),
      );
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
}

/**
 * got options for one request to vetted addresses: DNS pinned to them, fresh agents without keep-alive
 * (a pooled socket opened elsewhere for this host must never be reused), no HTTP/2, no redirects
 * followed (each hop is vetted by the caller), no retries, statuses returned rather than thrown.
 */
export function pinnedRequestOptions(addresses: IpLiteral[]) {
  return {
    dnsLookup: pinnedLookup(addresses),
    agent: { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) },
    http2: false,
    followRedirect: false,
    throwHttpErrors: false,
    retry: { limit: 0 },
  } as const;
}

async function requestOnce(
  url: URL,
  addresses: IpLiteral[],
  options: FetchOptions,
  signal: AbortSignal,
  remainingMs: number,
): Promise<Hop> {
  const budget = Math.max(1, remainingMs);
  const pinned = pinnedRequestOptions(addresses);
  const stream = got.stream(url, {
    ...pinned,
    decompress: true,
    timeout: { connect: Math.min(options.connectTimeoutMs ?? 10_000, budget), request: budget },
    signal,
    headers: { 'user-agent': options.userAgent ?? 'rhizome-url-import', accept: ACCEPT },
  });
  try {
    return await new Promise<Hop>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let status = 0;
      let contentType: string | undefined;
      const tooLarge = (): void => {
        stream.destroy();
        reject(
          new UrlFetchError(
            'too_large',
            url.href,
            `${url.href} is larger than the ${options.maxBytes}-byte limit.`,
            status,
          ),
        );
      };
      stream.on('response', (response: http.IncomingMessage) => {
        status = response.statusCode ?? 0;
        contentType = response.headers['content-type'];
        if (REDIRECT_STATUSES.has(status)) {
          stream.destroy();
          const location = response.headers.location;
          if (location) resolve({ kind: 'redirect', location });
          else
            reject(
              new UrlFetchError(
                'bad_redirect',
                url.href,
                `${url.href} answered ${status} without a Location header.`,
                status,
              ),
            );
        } else if (status >= 300) {
          stream.destroy();
          reject(new UrlFetchError('http_status', url.href, `${url.href} answered HTTP ${status}.`, status));
        } else if (Number(response.headers['content-length']) > options.maxBytes) {
          tooLarge();
        }
      });
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      stream.on('end', () => resolve({ kind: 'document', status, contentType, body: Buffer.concat(chunks) }));
      stream.on('error', reject);
    });
  } finally {
    stream.destroy();
    pinned.agent.http.destroy();
    pinned.agent.https.destroy();
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Maps whatever went wrong to one of our two error types with a message an operator can act on. */
function explain(error: unknown, url: string, options: FetchOptions, deadline: AbortSignal): Error {
  if (error instanceof UrlRefusedError || error instanceof UrlFetchError) return error;
  if (
    deadline.aborted ||
    (error instanceof Error && (error.name === 'TimeoutError' || (error as NodeJS.ErrnoException).code === 'ETIMEDOUT'))
  ) {
    return new UrlFetchError('timeout', url, `Fetching ${url} took longer than ${options.timeoutMs} ms.`);
  }
  if (options.signal?.aborted) return new UrlFetchError('aborted', url, `Fetching ${url} was cancelled.`);
  const reason = describeError(error);
  return new UrlFetchError('network', url, `Could not fetch ${url}: ${reason}`);
}
