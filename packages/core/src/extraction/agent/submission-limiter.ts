/** At most `max` submissions per key in any `windowMs` (a sliding window kept in this process). */
export class SubmissionLimiter {
  private readonly recent = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** Records one submission for `key`; false (nothing recorded) when the window is full. */
  take(key: string, now = Date.now()): boolean {
    const kept = (this.recent.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (kept.length >= this.max) {
      this.recent.set(key, kept);
      return false;
    }
    kept.push(now);
    this.recent.set(key, kept);
    return true;
  }
}
