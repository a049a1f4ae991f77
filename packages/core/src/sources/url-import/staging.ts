import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '@rhizome/contracts/settings';
import { PermanentTaskError } from '@rhizome/queue';
import { UnreadableFileError } from '../loaders/port.ts';
import type { ReceivedFile } from '../service.ts';
import { loaderLimits } from '../loaders/limits.ts';
import { loadDocument } from '../loaders/registry.ts';
import { sniffFile } from '../loaders/sniff-file.ts';
import { fetchUrl, UrlFetchError, UrlRefusedError } from './fetch-url.ts';

/** A fetched page or file, written where uploads land, ready to become a source. */
export interface StagedFetch extends ReceivedFile {
  finalUrl: string;
  title: string | null;
}

/** Task error types the API turns into 400 (a URL that is not acceptable) or 422 (it could not be imported). */
export const urlErrorTypes = { refused: 'UrlRefused', invalid: 'UrlInvalid', failed: 'UrlFetchFailed' } as const;

const minimumTextChars = 50;

/**
 * Fetches a URL under the address policy, checks its type against the upload allowlist and that it
 * has at least 50 characters of readable text, and writes it to `dir`. Throws PermanentTaskError with
 * one of `urlErrorTypes` so the caller can answer the operator precisely.
 */
export async function stageUrl(
  url: string,
  dir: string,
  settings: Settings,
  signal: AbortSignal,
): Promise<StagedFetch> {
  const fetched = await fetchUrl(url, {
    timeoutMs: settings.timeouts.url_fetch * 1000,
    connectTimeoutMs: settings.web.connect_timeout * 1000,
    maxBytes: Math.min(settings.web.max_fetch_bytes, settings.batching.max_upload_bytes),
    maxRedirects: settings.web.max_redirects,
    allowPrivate: settings.web.allow_private_addresses,
    signal,
  }).catch((error: unknown) => {
    if (error instanceof UrlRefusedError)
      throw new PermanentTaskError(
        error.message,
        ['invalid_url', 'scheme', 'credentials_in_url'].includes(error.code)
          ? urlErrorTypes.invalid
          : urlErrorTypes.refused,
      );
    if (error instanceof UrlFetchError) throw new PermanentTaskError(error.message, urlErrorTypes.failed);
    throw error;
  });
  const filename = filenameFor(fetched.finalUrl, fetched.mediaType);
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, `${randomBytes(12).toString('hex')}.fetched`);
  await fs.promises.writeFile(target, fetched.body);
  try {
    const sniffed = await sniffFile(target, filename);
    const allowed = settings.batching.allowed_content_types;
    if (!sniffed)
      throw new PermanentTaskError(
        `${fetched.finalUrl} returned content Rhizome cannot read (${fetched.mediaType ?? 'no content type'})`,
        urlErrorTypes.failed,
      );
    if (!allowed.includes('*') && !allowed.includes(sniffed.mediaType)) {
      throw new PermanentTaskError(
        `${fetched.finalUrl} returned ${sniffed.mediaType}, which batching.allowed_content_types does not allow`,
        urlErrorTypes.failed,
      );
    }
    // Only a check that the page has text: its scanned pages go to tesseract here, and to the model (if any) when indexed.
    const limits = loaderLimits(settings, false);
    const document = await loadDocument({ path: target, filename, limits, signal }).catch((error: unknown) => {
      throw error instanceof UnreadableFileError ? new PermanentTaskError(error.message, urlErrorTypes.failed) : error;
    });
    if (document.kind !== 'image' && document.text.trim().length < minimumTextChars) {
      throw new PermanentTaskError(
        `${fetched.finalUrl} has less than ${minimumTextChars} characters of text`,
        urlErrorTypes.failed,
      );
    }
    return {
      path: target,
      filename,
      size: fetched.body.length,
      sha256: createHash('sha256').update(fetched.body).digest('hex'),
      mediaType: sniffed.mediaType,
      format: sniffed.format,
      finalUrl: fetched.finalUrl,
      title: document.title,
    };
  } catch (error) {
    await fs.promises.rm(target, { force: true });
    throw error;
  }
}

function filenameFor(url: string, mediaType: string | null): string {
  const { hostname, pathname } = new URL(url);
  const last = decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '');
  if (last && /\.[a-z0-9]{2,5}$/i.test(last)) return last.slice(-200);
  return `${hostname}${mediaType === 'text/html' || !mediaType ? '.html' : ''}`;
}
