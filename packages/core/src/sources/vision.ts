import { readFile } from 'node:fs/promises';
import type { Settings } from '@rhizome/contracts/settings';
import { cloudModelsOf } from '../providers/index.ts';
import { LlmError } from '../providers/index.ts';
import { modelFor } from '../providers/index.ts';
import type { LlmCallContext } from '../providers/index.ts';
import type { LlmService } from '../providers/index.ts';
import type { Db } from '../storage/index.ts';
import { ocrImage, ToolFailedError, ToolMissingError } from '../media/index.ts';
import { readImageInfo, type ImageFormat } from './loaders/image.ts';
import { updateSource } from './repo.ts';

/**
 * Vision for image sources: the text of an image comes from a vision model, from OCR with tesseract, or
 * both (`ocr.mode`). With the local provider the model is `llm.localllm_vision_model` (vision stays off
 * until it is set); a cloud provider's chat model reads images when the cloud catalogue says it does; the
 * builtin provider has no vision, so by default images are read by OCR.
 */

const noMetadataOnly = 'the image was stored with its metadata only';

/** Why these settings give no vision model, or null when they do. Also the source's warning. */
export function visionUnavailableReason(settings: Settings): string | null {
  const { llm } = settings;
  const fix = 'set llm.localllm_vision_model (or choose a vision-capable cloud model) and re-index';
  switch (llm.chat_provider) {
    case 'builtin':
      return `No vision model is configured (the builtin provider cannot read images): ${noMetadataOnly}; ${fix}`;
    case 'localllm':
      return llm.localllm_vision_model ? null : `No vision model is configured: ${noMetadataOnly}; ${fix}`;
    default: {
      const model = modelFor(llm, 'vision');
      return catalogueSaysVision(llm.chat_provider, model)
        ? null
        : `No vision model is configured: the ${llm.chat_provider} chat model '${model}' is not known to read images, so ${noMetadataOnly}; ${fix}, or upload with enable_vision=true to try this model`;
    }
  }
}

/** Whether images are described by default (`enable_vision` left to auto-detect). */
export function visionAvailable(settings: Settings): boolean {
  return visionUnavailableReason(settings) === null;
}

/** The catalogue entry for the model id or a dated snapshot of it (`gpt-4.1-2025-04-14`, `claude-sonnet-4-5-20250929`). */
function catalogueSaysVision(provider: string, model: string): boolean {
  const entry = cloudModelsOf(provider)?.find(
    (candidate) =>
      model === candidate.id || new RegExp(`^${escapeRegExp(candidate.id)}-(\\d{4}-\\d{2}-\\d{2}|\\d{8})$`).test(model),
  );
  return entry?.supports_vision ?? false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether to describe an image, from the source's `enable_vision` (null = auto-detect) and the settings.
 * An explicit `true` also tries a cloud chat model the catalogue does not know (a new or self-hosted
 * model may read images); with no model at all there is nothing to try.
 */
export function visionDecision(
  settings: Settings,
  enableVision: boolean | null,
): { run: true } | { run: false; warning: string | null } {
  if (enableVision === false) return { run: false, warning: null };
  const reason = visionUnavailableReason(settings);
  if (reason === null) return { run: true };
  const cloud = settings.llm.chat_provider !== 'builtin' && settings.llm.chat_provider !== 'localllm';
  return enableVision === true && cloud ? { run: true } : { run: false, warning: reason };
}

export const visionSystemPrompt = [
  'You turn an image into text for a search index.',
  'First transcribe every piece of readable text in the image exactly as written, keeping its reading order and line breaks; do not translate, correct or summarise it.',
  'Then describe what the image shows: its kind (photo, diagram, chart, screenshot, scan, …), the subjects, and any data a chart or table conveys.',
  'Write plain text. Do not guess at text you cannot read, and do not mention these instructions.',
].join('\n');

const visionUserPrompt = 'Transcribe the text in this image, then describe the image.';

export interface DescribeImageInput {
  llm: LlmService;
  path: string;
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mediaType: string;
  settings: Settings;
  signal: AbortSignal;
  context?: LlmCallContext;
}

export interface ImageDescription {
  text: string;
  model: string;
  /** The model stopped at `llm.vision_max_tokens`. */
  truncated: boolean;
}

/** One vision call: the image's text and a description of it, capped at `llm.vision_max_tokens`. Throws `LlmError`. */
export async function describeImage(input: DescribeImageInput): Promise<ImageDescription> {
  const data = await readFile(input.path);
  const result = await input.llm.complete({
    operation: 'vision',
    system: visionSystemPrompt,
    messages: [{ role: 'user', content: visionUserPrompt, images: [{ mediaType: input.mediaType, data }] }],
    maxTokens: input.settings.llm.vision_max_tokens,
    thinking: false,
    signal: input.signal,
    context: input.context,
  });
  return { text: result.text.trim(), model: result.model, truncated: result.finishReason === 'length' };
}

/** What indexing needs to describe one image source. */
export interface SourceVisionInput {
  db: Db;
  database: string;
  sourceId: string;
  settings: Settings;
  llm: LlmService;
  /** The stored original. */
  path: string;
  /** The source's `enable_vision` column: null = auto-detect. */
  enableVision: boolean | null;
  signal: AbortSignal;
  checkCancelled(): Promise<void>;
}

/** The vision text of an image source (null when there is none) and the warnings to store with the source. */
export interface SourceVision {
  text: string | null;
  warnings: string[];
  durationMs: number;
}

/** Image formats vision models take; BMP and TIFF are read by OCR only. */
const visionFormats = new Set<ImageFormat>(['png', 'jpeg', 'gif', 'webp']);

/** Who reads an image: the vision model, tesseract, both (the model's text first), or none (metadata only). */
export interface ImageReaders {
  vision: boolean;
  ocr: boolean;
  /** tesseract reads the image when the model gave no text. */
  ocrFallback: boolean;
  /** Why the vision model does not read it, when `ocr.mode` wanted it to. */
  visionWarning: string | null;
}

/**
 * `ocr.mode`: auto takes the vision model when one is configured, and OCR when there is none or the model
 * gives no text; vision and ocr only that one; both, the two. `enable_vision=false` reads neither
 * (metadata only, as asked).
 */
export function imageReaders(settings: Settings, enableVision: boolean | null, format: ImageFormat): ImageReaders {
  if (enableVision === false) return { vision: false, ocr: false, ocrFallback: false, visionWarning: null };
  const decision = visionDecision(settings, enableVision);
  const visionWarning = decision.run
    ? visionFormats.has(format)
      ? null
      : `Vision models do not read ${format.toUpperCase()} images`
    : decision.warning;
  const vision = visionWarning === null;
  switch (settings.ocr.mode) {
    case 'vision':
      return { vision, ocr: false, ocrFallback: false, visionWarning };
    case 'ocr':
      return { vision: false, ocr: true, ocrFallback: false, visionWarning: null };
    case 'both':
      return { vision, ocr: true, ocrFallback: false, visionWarning };
    case 'auto':
      return { vision, ocr: !vision, ocrFallback: vision, visionWarning };
  }
}

/** Marks the source `vision_pending` while `work` reads its image, then back to indexing. */
async function whileReadingImage<T>(input: SourceVisionInput, description: string, work: () => Promise<T>): Promise<T> {
  await input.checkCancelled();
  await updateSource(
    input.db,
    input.sourceId,
    {
      status: 'vision_pending',
      current_step: 'vision',
      step_description: description,
      last_activity_at: new Date().toISOString(),
    },
    ['indexing'],
  );
  try {
    return await work();
  } finally {
    // Back to indexing unless the operator stopped the source meanwhile (stopping moves it on).
    await updateSource(
      input.db,
      input.sourceId,
      {
        status: 'indexing',
        current_step: 'preparing',
        step_description: 'Vision finished: preparing the image text',
        last_activity_at: new Date().toISOString(),
      },
      ['vision_pending'],
    );
  }
}

/**
 * Reads an image source while it shows `vision_pending`: with the vision model, tesseract or both
 * (`imageReaders`). A transient model failure (rate limit, unavailable, time-out) is thrown so the task is
 * retried; a permanent one (model missing, refused request, bad key), like an OCR failure, leaves the
 * source indexed with what was read and a warning instead of failing it.
 */
export async function describeSourceImage(input: SourceVisionInput): Promise<SourceVision> {
  const started = performance.now();
  const info = await readImageInfo(input.path);
  const readers = imageReaders(input.settings, input.enableVision, info.format);
  if (!readers.vision && !readers.ocr)
    return { text: null, warnings: readers.visionWarning ? [readers.visionWarning] : [], durationMs: 0 };
  const model = modelFor(input.settings.llm, 'vision');
  const description = [readers.ocr ? 'tesseract (OCR)' : null, readers.vision ? `the vision model ${model}` : null]
    .filter(Boolean)
    .join(' and ');
  const { texts, warnings } = await whileReadingImage(input, `Reading the image with ${description}`, async () => {
    const read: string[] = [];
    const noted: string[] = [];
    if (readers.vision) {
      const vision = await describeWithModel(input, info.format, model, readers.ocrFallback);
      if (vision.text) read.push(vision.text);
      noted.push(...vision.warnings);
    }
    if (readers.ocr || (readers.ocrFallback && !read.length)) {
      const ocr = await readImageText(input);
      if (ocr.text) read.push(ocr.text);
      if (ocr.warning) noted.push(ocr.warning);
    }
    return { texts: read, warnings: noted };
  });
  const durationMs = Math.round(performance.now() - started);
  if (texts.length) return { text: texts.join('\n\n'), warnings, durationMs };
  // Nothing read: the reason vision did not run leads, so the remedy is named first.
  const lead = readers.visionWarning ? [readers.visionWarning] : [];
  if (lead.length && readers.ocr && warnings.length === 1 && warnings[0] === ocrFoundNothing)
    return { text: null, warnings: [`${lead[0]}; OCR found no text in it either`], durationMs };
  return { text: null, warnings: [...lead, ...warnings], durationMs };
}

const ocrFoundNothing = `OCR (tesseract) found no text in the image: ${noMetadataOnly}`;

/** tesseract's text of the image; a failure (tesseract missing, say) is a warning, never an error. */
async function readImageText(input: SourceVisionInput): Promise<{ text: string | null; warning: string | null }> {
  try {
    const text = await ocrImage(input.path, {
      languages: input.settings.ocr.languages,
      timeoutMs: input.settings.ocr.page_timeout_seconds * 1000,
      signal: input.signal,
    });
    return text ? { text, warning: null } : { text: null, warning: ocrFoundNothing };
  } catch (error) {
    if (input.signal.aborted) await input.checkCancelled();
    if (!(error instanceof ToolMissingError || error instanceof ToolFailedError)) throw error;
    return { text: null, warning: `OCR could not read the image (${error.message})` };
  }
}

/** The model's text of the image; when it gives none, the warning says what follows (`thenOcr`: tesseract reads it). */
async function describeWithModel(
  input: SourceVisionInput,
  format: ImageFormat,
  model: string,
  thenOcr: boolean,
): Promise<{ text: string | null; warnings: string[] }> {
  const after = thenOcr ? 'it was read by OCR (tesseract) instead' : noMetadataOnly;
  try {
    const description = await describeImage({
      llm: input.llm,
      path: input.path,
      mediaType: `image/${format}`,
      settings: input.settings,
      signal: input.signal,
      context: { database: input.database, sourceId: input.sourceId },
    });
    const warnings: string[] = [];
    if (!description.text)
      warnings.push(`The vision model ${description.model} returned no text for the image: ${after}`);
    if (description.truncated)
      warnings.push(
        `The image description stopped at llm.vision_max_tokens (${input.settings.llm.vision_max_tokens} tokens) and may be incomplete`,
      );
    return { text: description.text || null, warnings };
  } catch (error) {
    if (input.signal.aborted) await input.checkCancelled();
    if (!(error instanceof LlmError) || error.transient || error.kind === 'cancelled') throw error;
    return {
      text: null,
      warnings: [`The vision model ${model} could not read the image (${error.message}): ${after}`],
    };
  }
}
