import { hash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';

export const apiKeyPrefix = 'cc_live_';
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

/** Shape check done before any hashing. The prefix is public, so comparing it needs no constant time. */
export function hasApiKeyShape(presented: string): boolean {
  return presented.length === apiKeyPrefix.length + keyBodyLength && presented.startsWith(apiKeyPrefix);
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
