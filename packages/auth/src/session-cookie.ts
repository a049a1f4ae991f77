import { randomBytes } from 'node:crypto';
import { sign, unsign } from 'cookie-signature';

export interface CookieOptions {
  name: string;
  ttlSeconds: number;
  secure: boolean;
}

export interface SessionClaims {
  username: string;
  epoch: number;
  expiresAt: number;
}

/**
 * Signs the claims with HMAC-SHA256 (cookie-signature); stateless, no session store. A random nonce makes
 * every session's token distinct, even two issued in the same second.
 */
export function createSessionValue(claims: SessionClaims, secret: string): string {
  const payload = Buffer.from(
    JSON.stringify({
      u: claims.username,
      e: claims.epoch,
      x: claims.expiresAt,
      n: randomBytes(6).toString('base64url'),
    }),
  ).toString('base64url');
  return sign(payload, secret);
}

/** Returns the claims of an authentic cookie value, or null when forged, malformed or expired. */
export function readSessionValue(value: string, secret: string, nowSeconds = Date.now() / 1000): SessionClaims | null {
  const payload = unsign(value, secret);
  if (payload === false) return null;
  try {
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      u?: unknown;
      e?: unknown;
      x?: unknown;
    };
    if (typeof raw.u !== 'string' || typeof raw.e !== 'number' || typeof raw.x !== 'number') return null;
    if (raw.x <= nowSeconds) return null;
    return { username: raw.u, epoch: raw.e, expiresAt: raw.x };
  } catch {
    return null;
  }
}

export function sessionCookieHeader(value: string, options: CookieOptions): string {
  const expires = new Date(Date.now() + options.ttlSeconds * 1000).toUTCString();
  return serialize(options, value, options.ttlSeconds, expires);
}

export function clearedCookieHeader(options: CookieOptions): string {
  return serialize(options, '', 0, new Date(0).toUTCString());
}

function serialize(options: CookieOptions, value: string, maxAge: number, expires: string): string {
  const parts = [
    `${options.name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAge}`,
    `Expires=${expires}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Finds one cookie in a Cookie header without parsing the others; runs on every verification, so it
 * walks the header by index instead of splitting it.
 */
export function findCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (let start = 0; start < header.length;) {
    let end = header.indexOf(';', start);
    if (end < 0) end = header.length;
    const nameStart = skipSpaces(header, start, end);
    if (header.startsWith(name, nameStart)) {
      const eq = skipSpaces(header, nameStart + name.length, end);
      if (eq < end && header.charCodeAt(eq) === 61 /* = */) return cookieValue(header.slice(eq + 1, end).trim());
    }
    start = end + 1;
  }
  return undefined;
}

function skipSpaces(text: string, from: number, end: number): number {
  let index = from;
  while (index < end && (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9)) index++;
  return index;
}

function cookieValue(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined; // malformed percent-encoding: no usable cookie (never a 500)
  }
}
