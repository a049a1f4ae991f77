/** Fixed-window counter per client key (login and setup attempts per address). */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limits: () => { max: number; windowSeconds: number }) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  hit(client: string, now = Date.now()): number {
    const { max, windowSeconds } = this.limits();
    const windowMs = windowSeconds * 1000;
    const current = this.windows.get(client);
    if (!current || now - current.start >= windowMs) {
      this.windows.set(client, { start: now, count: 1 });
      this.prune(now, windowMs);
      return 0;
    }
    current.count += 1;
    return current.count > max ? Math.ceil((current.start + windowMs - now) / 1000) : 0;
  }

  private prune(now: number, windowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [client, window] of this.windows) if (now - window.start >= windowMs) this.windows.delete(client);
  }
}
