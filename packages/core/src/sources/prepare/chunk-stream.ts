import type { ChunkList } from './packed.ts';
import type { PreparedChunk } from './prepare.ts';

/**
 * The chunks of a document while it is being prepared, in order, as its segments arrive: indexing takes
 * them a wave at a time, waiting for a wave to be complete (or the document to end). Chunks taken are
 * let go, so a large document's are not all held at once.
 */
export class ChunkStream {
  private readonly parts: ChunkList[] = [];
  /** Chunks of `parts[0]` already taken. */
  private taken = 0;
  private buffered = 0;
  private arrived = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  /** Chunks that have arrived so far, taken or not. */
  get received(): number {
    return this.arrived;
  }

  push(chunks: ChunkList): void {
    if (!chunks.length) return;
    this.parts.push(chunks);
    this.buffered += chunks.length;
    this.arrived += chunks.length;
    this.notify();
  }

  /** No more chunks will arrive. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** Preparation failed: whoever waits for chunks, now or later, gets `error`. */
  fail(error: unknown): void {
    this.failure = { error };
    this.notify();
  }

  /** The next `count` chunks, once they have arrived; fewer at the document's end, none after it. */
  async take(count: number): Promise<PreparedChunk[]> {
    while (!this.failure && !this.ended && this.buffered < count)
      await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.failure) throw this.failure.error;
    const chunks: PreparedChunk[] = [];
    while (chunks.length < count && this.parts.length) {
      const part = this.parts[0];
      const end = Math.min(part.length, this.taken + count - chunks.length);
      for (const chunk of part.slice(this.taken, end)) chunks.push(chunk);
      this.taken = end;
      if (this.taken === part.length) {
        this.parts.shift();
        this.taken = 0;
      }
    }
    this.buffered -= chunks.length;
    return chunks;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
