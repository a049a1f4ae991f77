import type { Settings } from '@rhizome/contracts/settings';
import { detectionSamples } from '../domains/detect.ts';
import type { LoaderFormat, LoaderLimits } from '../loaders/port.ts';
import { loadDocument } from '../loaders/registry.ts';
import { chunkText, type Chunk } from '../text/chunk.ts';
import { normalizeText } from '../text/normalize.ts';
import { originalLocator } from '../text/original-locator.ts';

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

/** A document read, cleaned and chunked: everything indexing needs from the file, nothing more. */
export interface PreparedDocument {
  format: LoaderFormat;
  hasText: boolean;
  title: string | null;
  warnings: string[];
  chunks: PreparedChunk[];
  /** Evenly spread excerpts for domain detection. */
  samples: string[];
  timings: Record<string, number>;
}

/** Load, normalise and chunk one stored file (CPU-bound: runs on a worker thread, see run-in-thread.ts). */
export async function prepareDocument(input: PrepareInput): Promise<PreparedDocument> {
  const timings: Record<string, number> = {};
  const time = async <T>(step: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings[`${step}_ms`] = Math.round(performance.now() - started);
    return result;
  };
  const loaded = await time('loading', () =>
    loadDocument({
      path: input.path,
      filename: input.filename,
      limits: input.limits,
      signal: new AbortController().signal,
    }),
  );
  const document =
    input.visionText !== undefined && loaded.kind === 'image' ? { ...loaded, text: input.visionText } : loaded;
  const normalized = await time('normalizing', () =>
    normalizeText(document.text, {
      kind: document.kind,
      enabled: input.normalize,
      spans: document.spans,
      removeStructuralNoise: input.chunking.normalize_remove_structural_noise,
      normalizeNewlines: input.chunking.normalize_newlines,
    }),
  );
  const chunks = await time('chunking', () =>
    chunkText(input.sourceId, normalized.text, normalized.spans, input.chunking),
  );
  const changed = normalized.text !== document.text && input.chunking.preserve_original_text_for_citations;
  const locate = changed ? originalLocator(document.text, normalized.offsetMap) : null;
  return {
    format: document.format,
    hasText: normalized.text.trim().length > 0,
    title: document.title,
    warnings: document.warnings,
    chunks: chunks.map((chunk) => {
      const located = locate ? locate(chunk) : { start: chunk.start, end: chunk.end, match: 'exact' as const };
      return { ...chunk, originalStart: located.start, originalEnd: located.end, offsetMatch: located.match };
    }),
    samples: detectionSamples(normalized.text),
    timings,
  };
}
