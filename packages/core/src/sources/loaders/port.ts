/**
 * The loader port: one module per format turns a stored upload into text with its structure. Loaders
 * run in neuron-worker (never in the API process) and must bound what they read: a hostile file may
 * claim gigabytes once decompressed.
 */
import type { OcrMode, TranscriptionProvider } from '@rhizome/contracts/settings';
import type { VisionConfig } from '../../providers/index.ts';

/** A stretch of the loaded text that came from one page, slide, sheet, chapter or section. */
export interface TextSpan {
  /** Offsets into `LoadedDocument.text`, end exclusive. */
  start: number;
  end: number;
  /** 1-based page (PDF), slide (PPTX, ODP) or sheet position (XLSX, ODS); null when the format has none. */
  page: number | null;
  /** Heading, sheet name, chapter title or similar; null when unknown. */
  section: string | null;
}

export interface LoadedDocument {
  /** Everything readable, spans joined by blank lines. May be empty (an image without vision). */
  text: string;
  spans: TextSpan[];
  format: LoaderFormat;
  /** `structured` text (CSV, JSON, XML, sheets) is not normalised by default; `image` has no text of its own. */
  kind: 'prose' | 'structured' | 'image';
  /** Title from the document's own metadata, else its first heading (Markdown, reST, HTML h1, DOCX Heading 1), when it has one. */
  title: string | null;
  /** Format facts worth keeping: page count, sheet names, image size, encoding, author … */
  metadata: Record<string, unknown>;
  /** Problems that did not stop loading: an unreadable page, a truncated sheet, a skipped entry. */
  warnings: string[];
}

export type LoaderFormat =
  | 'text'
  | 'markdown'
  | 'pdf'
  | 'docx'
  | 'html'
  | 'csv'
  | 'tsv'
  | 'json'
  | 'jsonl'
  | 'xml'
  | 'xlsx'
  | 'pptx'
  | 'epub'
  | 'rst'
  | 'image'
  | 'audio'
  | 'video'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'rtf'
  | 'xlsm'
  | 'doc';

export interface LoaderLimits {
  /** Most bytes a loader may inflate from an archive-based format (docx, xlsx, pptx, epub). */
  maxUnpackedBytes: number;
  /** Most entries it may read from such an archive. */
  maxEntries: number;
  /** Most characters of text a loader returns; the rest is dropped with a warning. */
  maxTextChars: number;
  /** How scanned pages and recordings are read; the default settings' way when absent. */
  media?: MediaReading;
}

/** The `ocr` and `transcription` settings as the loaders use them (durations in milliseconds). */
export interface MediaReading {
  ocr: {
    mode: OcrMode;
    languages: string;
    maxPages: number;
    pageTimeoutMs: number;
    /** Resolution pages are rendered at (`llm.vision_dpi`). */
    dpi: number;
    maxPagePixels: number;
    /** The configured vision model for pages without a text layer; null when there is none. */
    vision: VisionConfig | null;
    /** Why `vision` is null, for the warning when `mode` wanted it. */
    visionUnavailable: string | null;
  };
  transcription: {
    provider: TranscriptionProvider;
    apiBase: string | null;
    apiKey: string | null;
    model: string;
    language: string | null;
    requestTimeoutMs: number;
    maxSeconds: number;
  };
}

export interface LoaderInput {
  /** The stored upload on disk. */
  path: string;
  /** The name the operator uploaded it under. */
  filename: string;
  limits: LoaderLimits;
  signal: AbortSignal;
  /** Told as a loader works through a long read (a scanned PDF, page by page). */
  onProgress?: (progress: LoaderProgress) => void;
}

/** Where a page-by-page read stands: `done` of `total` pages, now reading `page` with `reader`. */
export interface LoaderProgress {
  reader: 'ocr' | 'vision';
  page: number;
  done: number;
  total: number;
}

/** A file the loader cannot read at all (corrupt, encrypted, not what its name says): the source fails with this message. */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

export interface Loader {
  format: LoaderFormat;
  /** Lower-case extensions with the dot. */
  extensions: string[];
  /** Media types this loader reads (the upload allowlist and URL import match against these). */
  mediaTypes: string[];
  load(input: LoaderInput): Promise<LoadedDocument>;
}
