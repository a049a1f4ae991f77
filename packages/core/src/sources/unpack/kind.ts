/**
 * Which uploads are containers whose members become sources: zip archives that are no document (a DOCX or
 * an EPUB is a zip too), tar archives (gzipped or not), single messages (.eml) and mailboxes (.mbox).
 */
import zlib from 'node:zlib';
import { looksLikeText } from '../loaders/encoding.ts';
import { extensionOf } from '../loaders/formats.ts';
import { readHead } from '../loaders/read.ts';
import { SNIFF_BYTES, sniffMediaType } from '../loaders/sniff.ts';

export type ContainerKind = 'zip' | 'tar' | 'eml' | 'mbox';

/** Media types of the containers, as the upload allowlist (`batching.allowed_content_types`) names them. */
export const containerMediaTypes: Record<ContainerKind, string[]> = {
  zip: ['application/zip', 'application/x-zip-compressed'],
  tar: ['application/x-tar', 'application/gzip'],
  // Mail is text, and was taken as text before it was unpacked.
  eml: ['message/rfc822', 'text/plain'],
  mbox: ['application/mbox', 'text/plain'],
};

const MAIL_EXTENSIONS: Record<string, ContainerKind> = { '.eml': 'eml', '.mbox': 'mbox', '.mbx': 'mbox' };

function isTarHeader(block: Buffer): boolean {
  return block.length >= 262 && block.toString('latin1', 257, 262) === 'ustar';
}

/** The start of a gzip stream unpacked as far as `head` goes (a partial stream is no error here). */
function gunzipHead(head: Buffer): Buffer {
  try {
    return zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}

/** A header line (`Name: value`) among the first lines of `text`. */
function startsWithHeaders(text: string): boolean {
  return /^[\x21-\x39\x3b-\x7e]+:/m.test(text.slice(0, 2048));
}

export function containerKindOf(head: Buffer, filename: string): ContainerKind | null {
  const zipped = head.length >= 4 && (head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50);
  if (zipped) return sniffMediaType(head, filename) ? null : 'zip';
  if (isTarHeader(head)) return 'tar';
  if (head[0] === 0x1f && head[1] === 0x8b) return isTarHeader(gunzipHead(head)) ? 'tar' : null;
  const mail = MAIL_EXTENSIONS[extensionOf(filename)];
  if (!mail || !looksLikeText(head)) return null;
  const text = head.toString('latin1');
  if (mail === 'mbox') return /^From /.test(text) ? 'mbox' : null;
  return startsWithHeaders(text) ? 'eml' : null;
}

/** The container kind of a stored file, from its first bytes and (for mail) its name; null when it is none. */
export async function containerKind(file: string, filename: string): Promise<ContainerKind | null> {
  return containerKindOf(await readHead(file, SNIFF_BYTES), filename);
}
