import { createHash } from 'node:crypto';

/** What every fake model server lets a test control and observe (real HTTP on 127.0.0.1). */
export interface FakeProviderControls {
  /** Base URL to configure the adapter with (exactly what the matching settings key expects). */
  url: string;
  /** The next `count` requests (any endpoint) answer `status` with the provider's error body. */
  failNext(status: number, count?: number, headers?: Record<string, string>): void;
  /** Delay before each answer starts, in ms (timeouts, cancellation). */
  setDelay(ms: number): void;
  /** Every request received: path, parsed JSON body (or null), headers. */
  requests: { method: string; path: string; body: unknown; headers: Record<string, string | string[] | undefined> }[];
  close(): Promise<void>;
}

/**
 * The deterministic behaviour all fakes share, so one contract suite checks every adapter:
 * - chat answers `echo: <last user message>`, streamed in at least two deltas;
 * - when tools are offered and the last message is a user message containing `use tool`, the answer is
 *   one call of the first tool with arguments `{"query": <that message>}` instead of text;
 * - a user message with images answers its echo followed by `fakeImageDescription` of each image, so a
 *   test sees the bytes arrived intact;
 * - usage: input tokens = words of all messages (system included), output tokens = words of the answer;
 * - embeddings are `fakeEmbedding(text)`: 8 dimensions, unit length, the same for the same text.
 */
export const fakeEmbeddingDimensions = 8;

export function fakeEmbedding(text: string): number[] {
  const vector = Array.from({ length: fakeEmbeddingDimensions }, (_, index) => {
    let hash = 2166136261 ^ index;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
    return ((hash >>> 0) % 1000) / 1000 - 0.5;
  });
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

export function fakeReply(lastUserMessage: string, images: readonly Uint8Array[] = []): string {
  return [`echo: ${lastUserMessage}`, ...images.map(fakeImageDescription)].join(' ');
}

/** What the fakes "see" in an image: its size and a fingerprint of its bytes (the first 16 hex digits of their SHA-256). */
export function fakeImageDescription(image: Uint8Array): string {
  return `[image of ${image.byteLength} bytes, fingerprint ${createHash('sha256').update(image).digest('hex').slice(0, 16)}]`;
}

/** The bytes of base64 text or of a `data:<type>;base64,` URL. */
export function bytesOfBase64(data: string): Buffer {
  return Buffer.from(data.replace(/^data:[^,]*;base64,/, ''), 'base64');
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Splits an answer into at least two stream deltas. */
export function deltasOf(text: string): string[] {
  const middle = Math.max(1, Math.floor(text.length / 2));
  return [text.slice(0, middle), text.slice(middle)];
}
