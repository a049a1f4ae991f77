import { describe, expect, it } from 'vitest';
import {
  clearedCookieHeader,
  createSessionValue,
  findCookie,
  readSessionValue,
  sessionCookieHeader,
  type SessionClaims,
} from '../src/session-cookie.ts';

const secret = 'unit-test-secret';
const now = 1_800_000_000;
const claims: SessionClaims = { username: 'operator', epoch: 3, expiresAt: now + 60 };

/** Replaces the character at `index` with another one from the same alphabet. */
function flipChar(value: string, index: number): string {
  const replacement = value[index] === 'A' ? 'B' : 'A';
  return value.slice(0, index) + replacement + value.slice(index + 1);
}

describe('session cookie value', () => {
  it('round-trips the claims with the same secret', () => {
    const value = createSessionValue(claims, secret);
    expect(value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9+/]+$/);
    expect(readSessionValue(value, secret, now)).toEqual(claims);
  });

  it('gives two sessions with the same claims distinct tokens', () => {
    const first = createSessionValue(claims, secret);
    const second = createSessionValue(claims, secret);
    expect(first).not.toBe(second);
    expect(readSessionValue(second, secret, now)).toEqual(claims);
  });

  it('refuses a value signed with another secret', () => {
    expect(readSessionValue(createSessionValue(claims, 'another-secret'), secret, now)).toBeNull();
  });

  it('refuses a value whose signature was tampered with', () => {
    const value = createSessionValue(claims, secret);
    expect(readSessionValue(flipChar(value, value.length - 2), secret, now)).toBeNull();
    expect(readSessionValue(value.slice(0, -1), secret, now)).toBeNull();
  });

  it('refuses a value whose payload was changed but the signature kept', () => {
    const value = createSessionValue(claims, secret);
    const signature = value.slice(value.lastIndexOf('.'));
    const forgedPayload = Buffer.from(JSON.stringify({ u: 'operator', e: 99, x: now + 60 })).toString('base64url');
    expect(readSessionValue(forgedPayload + signature, secret, now)).toBeNull();
  });

  it('refuses values without a signature or with a malformed payload', () => {
    expect(readSessionValue('', secret, now)).toBeNull();
    expect(readSessionValue('no-dot-at-all', secret, now)).toBeNull();
    // Authentic signature over something that is not the claims JSON.
    const signedGarbage = createSessionValue(claims, secret).replace(/^[^.]+/, 'bm90IGpzb24');
    expect(readSessionValue(signedGarbage, secret, now)).toBeNull();
  });

  it('expires at expiresAt (the boundary second included)', () => {
    const value = createSessionValue(claims, secret);
    expect(readSessionValue(value, secret, claims.expiresAt - 1)).not.toBeNull();
    expect(readSessionValue(value, secret, claims.expiresAt)).toBeNull();
    expect(readSessionValue(value, secret, claims.expiresAt + 1)).toBeNull();
  });

  it('uses the current time by default', () => {
    const past = createSessionValue({ ...claims, expiresAt: Math.floor(Date.now() / 1000) - 1 }, secret);
    const future = createSessionValue({ ...claims, expiresAt: Math.floor(Date.now() / 1000) + 60 }, secret);
    expect(readSessionValue(past, secret)).toBeNull();
    expect(readSessionValue(future, secret)).not.toBeNull();
  });
});

describe('cookie headers', () => {
  const options = { name: 'cc_session', ttlSeconds: 2_592_000, secure: false };

  it('sets the documented cookie attributes, Secure only when asked', () => {
    const header = sessionCookieHeader('v.s', options);
    expect(header.split('; ').slice(0, 5)).toEqual([
      'cc_session=v.s',
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      'Max-Age=2592000',
    ]);
    expect(header).not.toMatch(/Secure/);
    expect(sessionCookieHeader('v.s', { ...options, secure: true }).split('; ')).toContain('Secure');
  });

  it('clears the cookie with an empty value and Max-Age=0', () => {
    const header = clearedCookieHeader(options);
    expect(header.startsWith('cc_session=; ')).toBe(true);
    expect(header.split('; ')).toContain('Max-Age=0');
    expect(header).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });

  it('finds one cookie among others', () => {
    expect(findCookie('a=1; cc_session=abc.def; b=2', 'cc_session')).toBe('abc.def');
    expect(findCookie('xcc_session=1; cc_session_old=2', 'cc_session')).toBeUndefined();
    expect(findCookie(undefined, 'cc_session')).toBeUndefined();
    expect(findCookie('cc_session=a%2Bb', 'cc_session')).toBe('a+b');
  });

  it('finds a cookie whatever the spacing around names, values and separators', () => {
    expect(findCookie(' cc_session = abc.def ; b=2', 'cc_session')).toBe('abc.def');
    expect(findCookie('a=1;cc_session=x;b=2', 'cc_session')).toBe('x');
    expect(findCookie('a=1;\tcc_session=x', 'cc_session')).toBe('x');
    expect(findCookie('cc_session; cc_session=second', 'cc_session')).toBe('second');
    expect(findCookie('cc_sessionx=1; a=cc_session=2', 'cc_session')).toBeUndefined();
    expect(findCookie('cc_session=', 'cc_session')).toBe('');
    expect(findCookie('', 'cc_session')).toBeUndefined();
  });

  it('treats a malformed percent-encoding as no cookie instead of throwing', () => {
    expect(() => findCookie('cc_session=%E0%A4%A', 'cc_session')).not.toThrow();
    expect(findCookie('cc_session=%E0%A4%A', 'cc_session')).toBeUndefined();
  });
});
