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
    JSON.stringify({ u: claims.username, e: claims.epoch, x: claims.expiresAt, n: randomBytes(6).toString('base64url') }),
  ).toString('base64url');
  return sign(payload, secret);
}

/** Returns the claims of an authentic cookie value, or null when forged, malformed or expired. */
export function readSessionValue(value: string, secret: string, nowSeconds = Date.now() / 1000): SessionClaims | null {
  const payload = unsign(value, secret);
  if (payload === false) return null;
  try {
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; e?: unknown; x?: unknown };
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
  const parts = [`${options.name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAge}`, `Expires=${expires}`];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Finds one cookie in a Cookie header without parsing the others. */
export function findCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined; // malformed percent-encoding: no usable cookie (never a 500)
    }
  }
  return undefined;
}
