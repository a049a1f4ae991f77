import type { MediaReading } from './port.ts';

/** Who reads a PDF page without a text layer. */
export interface PageReaders {
  /** The vision model reads every page. */
  vision: boolean;
  /** tesseract reads every page (after the model, when both do). */
  ocr: boolean;
  /** tesseract reads a page the model could not. */
  ocrFallback: boolean;
  /** Why the model reads no page although `ocr.mode` asked for it; null when nothing is amiss. */
  note: string | null;
}

/**
 * `ocr.mode`: auto prefers the vision model when one is configured and falls back to tesseract page by
 * page; both keeps the two texts, the model's first; ocr and vision use only that one.
 */
export function pageReaders(reading: MediaReading['ocr']): PageReaders {
  const available = reading.vision !== null;
  const why = reading.visionUnavailable ?? 'no vision model is configured';
  switch (reading.mode) {
    case 'ocr':
      return { vision: false, ocr: true, ocrFallback: false, note: null };
    case 'auto':
      return { vision: available, ocr: !available, ocrFallback: available, note: null };
    case 'both':
      return { vision: available, ocr: true, ocrFallback: false, note: available ? null : why };
    case 'vision':
      return {
        vision: available,
        ocr: false,
        ocrFallback: false,
        note: available ? null : `ocr.mode is 'vision' but ${why} (set ocr.mode to auto, ocr or both)`,
      };
  }
}
