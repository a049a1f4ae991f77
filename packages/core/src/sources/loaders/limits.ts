import type { Settings } from '@rhizome/contracts/settings';
import { mediaReading } from './media-reading.ts';
import { pageVision } from './page-vision.ts';
import type { LoaderLimits } from './port.ts';

/**
 * How much a loader may unpack and return for a stored file (by default a 500 MiB parser cap and 10,000
 * archive entries), and how it reads scanned pages and recordings; `enableVision` is the source's own
 * choice (null: the settings decide).
 */
export function loaderLimits(settings: Settings, enableVision: boolean | null = null): LoaderLimits {
  return {
    maxUnpackedBytes: Math.min(settings.batching.max_upload_bytes, 500 * 1024 * 1024),
    maxEntries: 10_000,
    maxTextChars: 200_000_000,
    media: mediaReading(settings, pageVision(settings, enableVision)),
  };
}
