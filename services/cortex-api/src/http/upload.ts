import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import multer, { type StorageEngine } from 'multer';
import { ApiError, ErrorCode } from '@rhizome/contracts/errors';

/** An uploaded file on disk, hashed while it streamed in (never held in memory whole). */
export interface UploadedFile {
  path: string;
  filename: string;
  size: number;
  sha256: string;
}

type HashedFile = Express.Multer.File & { sha256: string };

/** Writes each part straight to `dir` and hashes it on the way; a part cut off by the size limit is removed. */
class HashingDiskStorage implements StorageEngine {
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly dir: string) {}

  /** Resolves once no part is being written or removed: multer reports a broken body before a cut-off part is gone. */
  async settled(): Promise<void> {
    while (this.writing.size) await Promise.allSettled([...this.writing]);
  }

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<HashedFile>) => void,
  ): void {
    const target = path.join(this.dir, `${randomBytes(12).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    // Hashing inside the pipeline: a 'data' listener of its own would start the flow before the file is open.
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const writing = fs.promises
      .mkdir(this.dir, { recursive: true })
      .then(() => pipeline(file.stream, hashing, fs.createWriteStream(target)))
      .then(
        () => callback(null, { path: target, size, sha256: hash.digest('hex') }),
        async (error: unknown) => {
          await fs.promises.rm(target, { force: true });
          callback(error);
        },
      )
      .finally(() => this.writing.delete(writing));
    this.writing.add(writing);
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    fs.promises.rm(file.path, { force: true }).then(() => callback(null), callback);
  }
}

export interface UploadLimits {
  dir: string;
  field: string;
  multiple: boolean;
  maxBytes: number;
  maxFiles: number;
}

/**
 * Receives a multipart upload into `dir` with the size limit enforced while streaming (413
 * PAYLOAD_TOO_LARGE, nothing kept), the file count limited (400) and, for a single file, an empty one
 * refused (422). Text fields land in `req.body`.
 */
export async function receiveUpload(req: Request, res: Response, limits: UploadLimits): Promise<UploadedFile[]> {
  const received: UploadedFile[] = [];
  // Whatever the request's outcome (a validation error included), files not moved into a source go.
  res.once('close', () => void discardUploads(received));
  const storage = new HashingDiskStorage(limits.dir);
  // Browsers and curl send a file name's UTF-8 bytes as they are; busboy's default would read them as Latin-1.
  const upload = multer({
    storage,
    defParamCharset: 'utf8',
    limits: { fileSize: limits.maxBytes, files: limits.maxFiles, fields: 100, fieldSize: 64 * 1024 },
  });
  const middleware = limits.multiple ? upload.array(limits.field, limits.maxFiles) : upload.single(limits.field);
  const failure = await new Promise<unknown>((resolve) => {
    middleware(req, res, (error: unknown) => resolve(error));
  });
  if (failure) {
    await storage.settled();
    throw uploadError(failure, limits);
  }
  const files = ((limits.multiple ? req.files : req.file ? [req.file] : []) ?? []) as HashedFile[];
  received.push(
    ...files.map((file) => ({ path: file.path, filename: file.originalname, size: file.size, sha256: file.sha256 })),
  );
  // A single-file request is that file, so an empty one refuses it; a multi-file request's files are its caller's to refuse one by one.
  const empty = limits.multiple ? undefined : received.find((file) => file.size === 0);
  if (empty) {
    await discardUploads(received);
    throw emptyFileError(empty, limits.field);
  }
  return received;
}

/** An empty file has nothing to store, index or import. */
export function emptyFileError(file: UploadedFile, field: string): ApiError {
  return ApiError.validation(
    [{ loc: ['body', field], msg: `the file '${file.filename}' is empty`, type: 'empty_file' }],
    `The file '${file.filename}' is empty`,
  );
}

/** A failure writing a part (disk full, permissions) is ours; anything else is the multipart parser refusing the body (400). */
export function multipartParseError(error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).syscall) return error;
  return ApiError.badRequest(`Malformed multipart body: ${(error as Error).message ?? String(error)}`);
}

function uploadError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof ApiError) return error;
  if (!(error instanceof multer.MulterError)) return multipartParseError(error);
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return new ApiError(
        413,
        ErrorCode.payloadTooLarge,
        `The upload exceeds the limit of ${limits.maxBytes} bytes (batching.max_upload_bytes)`,
        { limit: limits.maxBytes },
      );
    case 'LIMIT_FILE_COUNT':
    case 'LIMIT_UNEXPECTED_FILE':
      return error.field && error.field !== limits.field
        ? ApiError.badRequest(`Unexpected file field '${error.field}'; send the file as '${limits.field}'`, error.field)
        : ApiError.badRequest(
            `At most ${limits.maxFiles} file(s) per request (batching.max_upload_files)`,
            limits.field,
          );
    default:
      return ApiError.badRequest(`Malformed upload: ${error.message}`);
  }
}

async function discardUploads(files: UploadedFile[]): Promise<void> {
  await Promise.all(files.map((file) => fs.promises.rm(file.path, { force: true })));
}
