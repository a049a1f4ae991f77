/** Warnings of one kind (bad rows, bad lines) capped, so a broken file yields a short list and a count. */
export class CappedWarnings {
  private readonly kept: string[] = [];
  private dropped = 0;

  constructor(private readonly max = 10) {}

  get count(): number {
    return this.kept.length + this.dropped;
  }

  add(message: string): void {
    if (this.kept.length < this.max) this.kept.push(message);
    else this.dropped++;
  }

  list(): string[] {
    return this.dropped > 0 ? [...this.kept, `… and ${this.dropped} more like these`] : [...this.kept];
  }
}
