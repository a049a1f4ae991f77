import { defaultSettings, type Settings } from '@rhizome/contracts/settings';
import type { LoaderLimits, MediaReading } from './port.ts';

/** The vision model pages are read with (`page-vision.ts`), or why there is none. */
export type PageVision = Pick<MediaReading['ocr'], 'vision' | 'visionUnavailable'>;

const noPageVision: PageVision = { vision: null, visionUnavailable: null };

/**
 * The settings that say how scanned pages and recordings are read, as the loaders take them; pages are
 * read by a vision model only when `pageVision` names one.
 */
export function mediaReading(settings: Settings, pageVision: PageVision = noPageVision): MediaReading {
  const { ocr, transcription } = settings;
  return {
    ocr: {
      mode: ocr.mode,
      languages: ocr.languages,
      maxPages: ocr.max_pages,
      pageTimeoutMs: ocr.page_timeout_seconds * 1000,
      dpi: settings.llm.vision_dpi,
      maxPagePixels: ocr.max_page_pixels,
      ...pageVision,
    },
    transcription: {
      provider: transcription.provider,
      apiBase: transcription.api_base,
      apiKey: transcription.api_key,
      model: transcription.model,
      language: transcription.language,
      requestTimeoutMs: transcription.request_timeout_seconds * 1000,
      maxSeconds: transcription.max_duration_seconds,
    },
  };
}

let defaults: MediaReading | null = null;

/** The limits' media reading, or the default settings' when they carry none. */
export function mediaReadingOf(limits: LoaderLimits): MediaReading {
  if (limits.media) return limits.media;
  defaults ??= mediaReading(defaultSettings());
  return defaults;
}
