import type { Settings } from '@rhizome/contracts/settings';
import { detectionSamples } from '../domains/detect.ts';
import type { LoaderFormat, LoaderLimits, LoaderProgress, TextSpan } from '../loaders/port.ts';
import { loadDocument } from '../loaders/registry.ts';
import { documentTitle } from '../title.ts';
import { chunkText, type Chunk } from '../text/chunk.ts';
import { normalizeText } from '../text/normalize.ts';
import { originalLocator } from '../text/original-locator.ts';
import { JoinedText, segmentStarts } from '../text/segments.ts';

export interface PrepareInput {
  sourceId: string;
  path: string;
  filename: string;
  limits: LoaderLimits;
  /** null = auto (on for prose, off for structured text). */
  normalize: boolean | null;
  chunking: Settings['chunking'];
  /** What a vision model read from an image source: its text, in place of the image loader's none. */
  visionText?: string;
}

export interface PreparedChunk extends Chunk {
  originalStart: number | null;
  originalEnd: number | null;
  offsetMatch: 'exact' | 'fuzzy' | 'none';
}

/** What preparing a document tells besides its chunks, once all of them have been handed over. */
export interface PreparedSummary {
  format: LoaderFormat;
  hasText: boolean;
  title: string | null;
  warnings: string[];
  chunkCount: number;
  /** Evenly spread excerpts for domain detection. */
  samples: string[];
  timings: Record<string, number>;
}

/**
 * Load one stored file, then normalise and chunk it a segment at a time (`text/segments.ts`), handing each
 * segment's chunks to `emit` as soon as they are ready, so indexing stores and embeds the first ones while
 * the rest is prepared. CPU-bound: runs on a worker thread (see run-in-thread.ts).
 */
export async function prepareInSegments(
  input: PrepareInput,
  emit: (chunks: PreparedChunk[]) => void,
  onProgress?: (progress: LoaderProgress) => void,
): Promise<PreparedSummary> {
  const timings: Record<string, number> = { loading_ms: 0, normalizing_ms: 0, chunking_ms: 0 };
  const time = async <T>(step: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings[`${step}_ms`] += performance.now() - started;
    return result;
  };
  const loaded = await time('loading', () =>
    loadDocument({
      path: input.path,
      filename: input.filename,
      limits: input.limits,
      signal: new AbortController().signal,
      onProgress,
    }),
  );
  const document =
    input.visionText !== undefined && loaded.kind === 'image' ? { ...loaded, text: input.visionText } : loaded;
  const starts = segmentStarts(document.text);
  const normalizedSegments: string[] = [];
  let chunkCount = 0;
  let normalizedStart = 0;
  let fenced = false;
  for (let segment = 0; segment < starts.length; segment++) {
    const from = starts[segment];
    const to = starts[segment + 1] ?? document.text.length;
    const original = starts.length === 1 ? document.text : document.text.slice(from, to);
    const normalized = await time('normalizing', () =>
      normalizeText(original, {
        kind: document.kind,
        enabled: input.normalize,
        spans: spansWithin(document.spans, from, to),
        removeStructuralNoise: input.chunking.normalize_remove_structural_noise,
        normalizeNewlines: input.chunking.normalize_newlines,
        continues: segment + 1 < starts.length,
        fenced,
      }),
    );
    fenced = normalized.fenced;
    const chunks = await time('chunking', () => {
      const segmentChunks = chunkText(input.sourceId, normalized.text, normalized.spans, input.chunking, chunkCount);
      const changed = normalized.text !== original && input.chunking.preserve_original_text_for_citations;
      const locate = changed ? originalLocator(original, normalized.offsetMap) : null;
      return segmentChunks.map((chunk): PreparedChunk => {
        const located = locate ? locate(chunk) : { start: chunk.start, end: chunk.end, match: 'exact' as const };
        return {
          ...chunk,
          start: chunk.start + normalizedStart,
          end: chunk.end + normalizedStart,
          originalStart: located.start === null ? null : located.start + from,
          originalEnd: located.end === null ? null : located.end + from,
          offsetMatch: located.match,
        };
      });
    });
    if (chunks.length) emit(chunks);
    chunkCount += chunks.length;
    normalizedStart += normalized.text.length;
    normalizedSegments.push(normalized.text);
  }
  const text = new JoinedText(normalizedSegments);
  for (const step of Object.keys(timings)) timings[step] = Math.round(timings[step]);
  return {
    format: document.format,
    hasText: normalizedSegments.some((segment) => segment.trim().length > 0),
    title: documentTitle(document, input.filename),
    warnings: document.warnings,
    chunkCount,
    samples: detectionSamples(text),
    timings,
  };
}

/** The spans overlapping [from, to), cut to it and counted from `from`. */
function spansWithin(spans: readonly TextSpan[], from: number, to: number): TextSpan[] {
  return spans
    .filter((span) => span.end > from && span.start < to)
    .map((span) => ({ ...span, start: Math.max(span.start, from) - from, end: Math.min(span.end, to) - from }));
}
