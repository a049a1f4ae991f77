import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/rate-limit.ts';

describe('RateLimiter', () => {
  const limiter = () => new RateLimiter(() => ({ max: 3, windowSeconds: 60 }));
  const t0 = 1_000_000;

  it('allows max attempts in a window and reports the wait for the next', () => {
    const rl = limiter();
    expect([rl.hit('a', t0), rl.hit('a', t0 + 1000), rl.hit('a', t0 + 2000)]).toEqual([0, 0, 0]);
    expect(rl.hit('a', t0 + 10_000)).toBe(50);
    expect(rl.hit('a', t0 + 59_001)).toBe(1);
  });

  it('counts clients separately', () => {
    const rl = limiter();
    for (let i = 0; i < 4; i++) rl.hit('a', t0);
    expect(rl.hit('a', t0)).toBeGreaterThan(0);
    expect(rl.hit('b', t0)).toBe(0);
  });

  it('starts a fresh window once the old one has passed', () => {
    const rl = limiter();
    for (let i = 0; i < 5; i++) rl.hit('a', t0);
    expect(rl.hit('a', t0 + 59_999)).toBeGreaterThan(0);
    expect(rl.hit('a', t0 + 60_000)).toBe(0);
    expect(rl.hit('a', t0 + 60_001)).toBe(0);
    expect(rl.hit('a', t0 + 60_002)).toBe(0);
    expect(rl.hit('a', t0 + 60_003)).toBe(60);
  });

  it('reads the limits on every hit (settings hot reload)', () => {
    let max = 1;
    const rl = new RateLimiter(() => ({ max, windowSeconds: 60 }));
    expect(rl.hit('a', t0)).toBe(0);
    expect(rl.hit('a', t0)).toBe(60);
    max = 10;
    expect(rl.hit('a', t0)).toBe(0);
  });
});
