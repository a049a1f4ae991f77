import got, { type Method } from 'got';
import { checkUrl, pinnedRequestOptions, vetHost, UrlRefusedError } from '../../sources/index.ts';
import { defineTool, ToolInputError } from './types.ts';

interface HttpInput {
  url: string;
  method: Method;
  headers?: Record<string, string>;
  body?: unknown;
  timeout_seconds?: number;
  fail_on_status: boolean;
}

/**
 * `http.request`: one HTTP call under URL import's outbound-address policy: the host is resolved and
 * vetted once (metadata endpoints always refused, private addresses unless `web.allow_private_addresses`)
 * and the connection is pinned to the vetted addresses. Redirects are not followed (the 3xx is returned),
 * so no hop escapes the check. The body is capped at `web.max_fetch_bytes`; the whole call at
 * `timeout_seconds` (default `timeouts.http_request`).
 */
export const httpRequest = defineTool<HttpInput>({
  id: 'http.request',
  category: 'http',
  name: 'HTTP Request',
  description:
    'Calls an HTTP(S) URL (public addresses only unless private addresses are allowed in the settings) and returns status, headers and body (JSON parsed when it is JSON).',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['url'],
    properties: {
      url: { type: 'string', minLength: 1 },
      method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'], default: 'GET' },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      body: {},
      timeout_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 600 },
      fail_on_status: { type: 'boolean', default: true, description: 'a 4xx or 5xx answer fails the step' },
    },
  },
  outputSchema: {
    type: 'object',
    properties: { status: { type: 'integer' }, headers: { type: 'object' }, body: {}, url: { type: 'string' } },
  },
  async run(input, context) {
    const { web, timeouts } = context.settings;
    const timeoutMs = (input.timeout_seconds ?? timeouts.http_request) * 1000;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
    let url: URL;
    let addresses;
    try {
      url = checkUrl(input.url);
      addresses = await vetHost(
        url,
        { allowPrivate: web.allow_private_addresses, timeoutMs, maxBytes: web.max_fetch_bytes, maxRedirects: 0 },
        signal,
      );
    } catch (error) {
      if (error instanceof UrlRefusedError) throw new ToolInputError(`refused: ${error.message}`);
      throw error;
    }
    const json = input.body !== undefined && typeof input.body !== 'string';
    const pinned = pinnedRequestOptions(addresses);
    try {
      const request = got(url, {
        ...pinned,
        method: input.method,
        headers: {
          'user-agent': 'rhizome-workflows',
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...input.headers,
        },
        body: input.body === undefined ? undefined : json ? JSON.stringify(input.body) : (input.body as string),
        timeout: { request: timeoutMs },
        signal,
        responseType: 'buffer',
      });
      request.on('downloadProgress', (progress: { transferred: number }) => {
        if (progress.transferred > web.max_fetch_bytes)
          request.cancel(`the answer is larger than ${web.max_fetch_bytes} bytes`);
      });
      const response = await request;
      const body = decodeBody(response.body, response.headers['content-type']);
      if (input.fail_on_status && response.statusCode >= 400)
        throw new Error(`HTTP ${response.statusCode} from ${url.href}`);
      return { status: response.statusCode, headers: { ...response.headers }, body, url: url.href };
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (signal.aborted) throw new Error(`the request to ${url.href} took longer than ${timeoutMs} ms`);
      throw error;
    } finally {
      pinned.agent.http.destroy();
      pinned.agent.https.destroy();
    }
  },
});

function decodeBody(bytes: Buffer, contentType: string | undefined): unknown {
  const text = bytes.toString('utf8');
  if (!/\bjson\b/i.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
