import { describe, expect, it } from 'vitest';
import {
  apiKeyPrefix,
  compareApiKey,
  generateApiKey,
  generateKeyId,
  hasApiKeyShape,
  hashApiKey,
  keyLookup,
} from '../src/api-keys.ts';

const body32 = 'A'.repeat(32);

describe('API key shape', () => {
  it('generates cc_live_ keys of 32 url-safe characters and key_ ids', () => {
    const keys = new Set(Array.from({ length: 20 }, generateApiKey));
    expect(keys.size).toBe(20);
    for (const key of keys) {
      expect(key).toMatch(/^cc_live_[A-Za-z0-9_-]{32}$/);
      expect(hasApiKeyShape(key)).toBe(true);
    }
    expect(generateKeyId()).toMatch(/^key_[A-Za-z0-9]+$/);
  });

  it.each([
    ['right prefix and length', `${apiKeyPrefix}${body32}`, true],
    ['one character short', `${apiKeyPrefix}${body32.slice(1)}`, false],
    ['one character long', `${apiKeyPrefix}${body32}A`, false],
    ['wrong prefix of the same length', `cc_test_${body32}`, false],
    ['prefix in another case', `CC_LIVE_${body32}`, false],
    ['no prefix', `${body32}${body32.slice(0, 8)}`, false],
    ['empty', '', false],
  ])('hasApiKeyShape: %s', (_label, presented, expected) => {
    expect(hasApiKeyShape(presented)).toBe(expected);
  });

  it('hashes with bcrypt and compares only the exact key', async () => {
    const key = generateApiKey();
    const hash = await hashApiKey(key);
    expect(hash).toMatch(/^\$2[aby]\$10\$/);
    expect(hash).not.toContain(key.slice(apiKeyPrefix.length));
    expect(await compareApiKey(key, hash)).toBe(true);
    expect(await compareApiKey(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, hash)).toBe(false);
    expect(keyLookup(key)).toMatch(/^[0-9a-f]{12}$/);
  });
});
