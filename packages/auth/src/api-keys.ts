import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcrypt';

export const apiKeyPrefix = 'cc_live_';
const prefixBytes = Buffer.from(apiKeyPrefix);
const keyBodyLength = 32;
const bcryptRounds = 10;
const lookupLength = 12;

/** A new key: `cc_live_` and 32 url-safe base64 characters (24 random bytes). */
export function generateApiKey(): string {
  return apiKeyPrefix + randomBytes(24).toString('base64url');
}

export function generateKeyId(): string {
  return `key_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** Constant-time prefix and shape check, done before any hashing. */
export function hasApiKeyShape(presented: string): boolean {
  if (presented.length !== apiKeyPrefix.length + keyBodyLength) return false;
  const head = Buffer.from(presented.slice(0, apiKeyPrefix.length));
  return head.length === prefixBytes.length && timingSafeEqual(head, prefixBytes);
}

/** One-shot hashing: a quarter of createHash()'s cost, and it runs on every API-key request. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function keyLookup(presented: string): string {
  return sha256Hex(presented).slice(0, lookupLength);
}

export function hashApiKey(key: string): Promise<string> {
  return bcrypt.hash(key, bcryptRounds);
}

export function compareApiKey(presented: string, hash: string): Promise<boolean> {
  return bcrypt.compare(presented, hash);
}
