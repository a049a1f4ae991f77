import type { BodyOf, Endpoint, ParamsOf, QueryOf, ResponseOf } from '@rhizome/contracts/endpoint';
import { requestErrorOf } from './errors.ts';
import { readEventStream } from './sse.ts';
import { databaseHeader } from '@rhizome/contracts/api/databases';

type AnyEndpoint = Endpoint;
type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** Where a call goes besides the endpoint's path: its path parameters and query, typed by the contract. */
export type Location<E> = (ParamsOf<E> extends Record<string, never>
  ? { params?: undefined }
  : { params: ParamsOf<E> }) &
  (QueryOf<E> extends Record<string, never> ? { query?: undefined } : { query?: Partial<QueryOf<E>> });

/** What a call needs besides the endpoint: the location, the JSON body typed by the contract, and a signal. */
export type CallInput<E> = Location<E> &
  (BodyOf<E> extends undefined ? { body?: undefined } : { body: BodyOf<E> }) & { signal?: AbortSignal };

interface LooseInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** Where /api/v1 is; the page's own origin by default. */
  baseUrl?: string;
  /** An API key for scripts; a browser uses its session cookie. */
  apiKey?: string;
  /** Every call works on this database instead of the server's active one. */
  database?: string;
  fetch?: typeof fetch;
  /** Called when a call answers 401 (the session ended), before the error is thrown. */
  onUnauthorized?: () => void;
}

/** A typed client of the HTTP API: one method per kind of exchange, every endpoint from the contracts. */
export class RhizomeClient {
  private readonly baseUrl: string;
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '/api/v1').replace(/\/$/, '');
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The URL of an endpoint with its path parameters and query filled in (for links and downloads). */
  url<E extends AnyEndpoint>(endpoint: E, ...[input]: OptionalWhenEmpty<Location<E>>): string {
    return this.locate(endpoint, input);
  }

  private locate(endpoint: AnyEndpoint, input: LooseInput = {}): string {
    const params = (input.params ?? {}) as Record<string, string>;
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, QueryValue>)) {
      if (value === undefined || value === null || value === '') continue;
      for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
    }
    const query = search.toString();
    return `${this.baseUrl}${path}${query ? `?${query}` : ''}`;
  }

  /** A JSON exchange; resolves to the contract's success body (undefined for 204), rejects with a RequestError. */
  async call<E extends AnyEndpoint>(endpoint: E, ...[input]: OptionalWhenEmpty<CallInput<E>>): Promise<ResponseOf<E>> {
    const given: LooseInput = input ?? {};
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (given.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(given.body);
    }
    const response = await this.send(this.locate(endpoint, given), {
      method: endpoint.method,
      headers,
      body,
      signal: given.signal,
    });
    return (await parsed(response)) as ResponseOf<E>;
  }

  /** A multipart upload: the contract's form fields plus the files under its file field, and the query if it takes one. */
  async upload<E extends AnyEndpoint>(
    endpoint: E,
    files: Blob[],
    fields: Partial<BodyOf<E>> = {},
    { query, signal }: { query?: Partial<QueryOf<E>>; signal?: AbortSignal } = {},
  ): Promise<ResponseOf<E>> {
    if (!endpoint.files) throw new Error(`${endpoint.method} ${endpoint.path} takes no files`);
    const form = new FormData();
    for (const [key, value] of Object.entries(fields as Record<string, unknown>))
      if (value !== undefined && value !== null) form.append(key, String(value));
    for (const file of files) form.append(endpoint.files.field, file, file instanceof File ? file.name : 'upload');
    const response = await this.send(this.locate(endpoint, { query }), { method: endpoint.method, body: form, signal });
    return (await parsed(response)) as ResponseOf<E>;
  }

  /** A non-JSON body (a markdown export, an original file) as a Blob with the server's file name. */
  async download<E extends AnyEndpoint>(
    endpoint: E,
    input: Location<E>,
  ): Promise<{ blob: Blob; filename: string | null }> {
    const response = await this.send(this.locate(endpoint, input), { method: endpoint.method });
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
    return { blob: await response.blob(), filename: filename ? decodeURIComponent(filename) : null };
  }

  /**
   * Follows a server-sent-event endpoint, handing each frame's JSON to `onEvent`; resolves when the
   * server closes the stream, rejects when it cannot be opened (a RequestError) or breaks off.
   */
  async stream<E extends AnyEndpoint, T = unknown>(
    endpoint: E,
    input: Location<E>,
    onEvent: (event: T) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const response = await this.send(this.locate(endpoint, input), {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
      signal,
    });
    if (!response.body) return;
    await readEventStream(response.body, (data) => onEvent(JSON.parse(data) as T), signal);
  }

  /**
   * POSTs the JSON body to an endpoint answering with server-sent events (a streamed completion), handing
   * each frame's data to `onData` as sent; rejects with a RequestError when the server refuses the request.
   */
  async streamCall<E extends AnyEndpoint>(
    endpoint: E,
    input: CallInput<E>,
    onData: (data: string) => void,
  ): Promise<void> {
    const given: LooseInput = input;
    const headers = { accept: 'text/event-stream', 'content-type': 'application/json' };
    const response = await this.send(this.locate(endpoint, given), {
      method: endpoint.method,
      headers,
      body: JSON.stringify(given.body),
      signal: given.signal,
    });
    if (response.body) await readEventStream(response.body, onData, given.signal);
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.options.apiKey) headers.set('authorization', `Bearer ${this.options.apiKey}`);
    if (this.options.database) headers.set(databaseHeader, this.options.database);
    const response = await this.fetcher(url, { ...init, headers, credentials: 'same-origin' });
    if (response.ok) return response;
    if (response.status === 401) this.options.onUnauthorized?.();
    throw await requestErrorOf(response);
  }
}

/** `call(endpoint)` without a second argument when the endpoint needs nothing. */
type OptionalWhenEmpty<I> = Record<never, never> extends I ? [input?: I] : [input: I];

async function parsed(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  return (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
}
