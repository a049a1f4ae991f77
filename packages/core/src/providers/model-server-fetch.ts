/**
 * fetch for model servers, local or hosted. Local servers live on loopback and the private network, so
 * those stay allowed; link-local and cloud-metadata addresses (which hand out instance credentials) are
 * refused before connecting, and a redirect is followed only on the same host.
 */
import dns from 'node:dns';
import { classifyAddress, isMetadataHostname, parseIpLiteral } from '../net/index.ts';

const maxSameHostRedirects = 5;

/** A model server's URL whose host is, or resolves to, a link-local or cloud metadata address. */
export class RefusedAddressError extends Error {
  constructor(readonly url: string) {
    super(`${url} is a link-local or cloud metadata address, which model servers are never reached at`);
    this.name = 'RefusedAddressError';
  }
}

/** Whether `url` names a metadata service or a link-local or metadata address as it is written, unresolved. */
export function namesMetadataHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isMetadataHostname(host) || classifyAddress(host) === 'metadata';
}

/** Refuses `url` when its host names a metadata service or any of its addresses is link-local or metadata. */
export async function refuseMetadataHost(url: URL, signal?: AbortSignal | null): Promise<void> {
  if (
    namesMetadataHost(url) ||
    (await addressesOf(url.hostname, signal)).some((address) => classifyAddress(address) === 'metadata')
  )
    throw new RefusedAddressError(url.origin);
}

/** What a host name resolves to; nothing for an IP literal, which `namesMetadataHost` has judged already. */
async function addressesOf(hostname: string, signal?: AbortSignal | null): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (parseIpLiteral(host)) return [];
  const lookup = dns.promises.lookup(host, { all: true, verbatim: true });
  // A name that does not resolve, or not before the caller's deadline, fails in fetch itself, as the caller expects.
  const answers = await (signal ? Promise.race([lookup, whenAborted(signal)]) : lookup).catch(() => []);
  return answers.map((answer) => answer.address);
}

function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

export const modelServerFetch: typeof fetch = async (input, init) => {
  if (input instanceof Request) {
    await refuseMetadataHost(new URL(input.url), init?.signal ?? input.signal);
    return fetch(input, { ...init, redirect: 'manual' });
  }
  let url = new URL(input);
  for (let redirects = 0; ; redirects += 1) {
    await refuseMetadataHost(url, init?.signal);
    const response = await fetch(url, { ...init, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    const next = new URL(location, url);
    // Not followed: the 3xx answers the caller, who reports a server that does not answer like a model server.
    if (next.host !== url.host || redirects >= maxSameHostRedirects) return response;
    await response.body?.cancel();
    url = next;
  }
};
