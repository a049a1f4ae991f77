import { RequestError } from '@rhizome/client';
import { sourceEndpoints, type SourceResponseBody, type UploadOptionsInput } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';

/** Files go up in batches of this many (the server's default batching.max_upload_files). */
const batchSize = 20;

/** A file the server did not take, with its own reason. */
export interface UploadFailure {
  filename: string;
  error: string;
}

export interface UploadOutcome {
  added: SourceResponseBody[];
  failed: UploadFailure[];
}

/** A batch larger than the server takes in one request: nothing was stored, but each file alone may fit. */
const isTooLarge = (error: unknown) => error instanceof RequestError && error.status === 413;

/**
 * Uploads one batch. The server answers a file it cannot take in the batch's own `errors`; a batch too
 * large as a whole is sent again a file at a time, so each file gets its own answer.
 */
async function uploadBatch(files: File[], options: UploadOptionsInput): Promise<UploadOutcome> {
  try {
    const result = await api.upload(sourceEndpoints.uploadBatch, files, options);
    return { added: result.files, failed: result.errors };
  } catch (error) {
    if (files.length > 1 && isTooLarge(error)) return uploadEach(files, options);
    return { added: [], failed: files.map((file) => ({ filename: file.name, error: messageOf(error) })) };
  }
}

async function uploadEach(files: File[], options: UploadOptionsInput): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { added: [], failed: [] };
  for (const file of files) {
    const one = await uploadBatch([file], options);
    outcome.added.push(...one.added);
    outcome.failed.push(...one.failed);
  }
  return outcome;
}

/** Uploads dropped files batch by batch, reporting the sources of each batch as soon as it is in. */
export async function uploadFiles(
  files: File[],
  options: UploadOptionsInput,
  onAdded: (sources: SourceResponseBody[]) => void,
): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { added: [], failed: [] };
  for (let start = 0; start < files.length; start += batchSize) {
    const batch = await uploadBatch(files.slice(start, start + batchSize), options);
    if (batch.added.length) onAdded(batch.added);
    outcome.added.push(...batch.added);
    outcome.failed.push(...batch.failed);
  }
  return outcome;
}
