/** PNG, JPEG, GIF, WebP, BMP and TIFF: format and pixel size from the header bytes; the text comes later, from vision or OCR. */
import { open, type FileHandle } from 'node:fs/promises';
import { defineLoader } from './formats.ts';
import { UnreadableFileError, type LoadedDocument } from './port.ts';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'tiff';

export interface ImageInfo {
  format: ImageFormat;
  width: number | null;
  height: number | null;
}

const HEADER_BYTES = 64;
/** JPEG markers walked before giving up on finding the frame header. */
const MAX_JPEG_SEGMENTS = 1_000;

export function imageFormat(head: Uint8Array): ImageFormat | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  // A BMP's header size (at 14) is one of the few the format defines, which tells it from text starting "BM".
  if (
    b.length >= 18 &&
    b.toString('latin1', 0, 2) === 'BM' &&
    [12, 40, 52, 56, 64, 108, 124].includes(b.readUInt32LE(14))
  )
    return 'bmp';
  if (b.length >= 4 && (b.toString('latin1', 0, 4) === 'II*\0' || b.toString('latin1', 0, 4) === 'MM\0*'))
    return 'tiff';
  return null;
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  return null;
}

/** Width and height from the BMP info header (a negative height means rows stored top-down). */
function bmpSize(b: Buffer): { width: number; height: number } {
  if (b.readUInt32LE(14) === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  return { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** Walks the JPEG segments (reading only their headers) to the first start-of-frame marker. */
async function jpegSize(handle: FileHandle, size: number): Promise<{ width: number; height: number } | null> {
  let position = 2;
  for (let segment = 0; segment < MAX_JPEG_SEGMENTS && position + 9 <= size; segment++) {
    const header = await readAt(handle, position, 9);
    if (header.length < 4 || header[0] !== 0xff) return null;
    const marker = header[1];
    if (marker === 0xff) {
      position++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      position += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && header.length >= 9) return { width: header.readUInt16BE(7), height: header.readUInt16BE(5) };
    position += 2 + header.readUInt16BE(2);
  }
  return null;
}

export async function readImageInfo(path: string): Promise<ImageInfo> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = await readAt(handle, 0, HEADER_BYTES);
    const format = imageFormat(head);
    if (!format) throw new UnreadableFileError('The file is not a PNG, JPEG, GIF, WebP, BMP or TIFF image');
    let dimensions: { width: number; height: number } | null = null;
    if (format === 'png' && head.length >= 24 && head.toString('latin1', 12, 16) === 'IHDR') {
      dimensions = { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
    } else if (format === 'gif' && head.length >= 10) {
      dimensions = { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
    } else if (format === 'webp') dimensions = webpSize(head);
    else if (format === 'bmp' && head.length >= 26) dimensions = bmpSize(head);
    else if (format === 'jpeg') dimensions = await jpegSize(handle, size);
    return { format, width: dimensions?.width ?? null, height: dimensions?.height ?? null };
  } finally {
    await handle.close();
  }
}

export const imageLoader = defineLoader('image', async (input): Promise<LoadedDocument> => {
  input.signal.throwIfAborted();
  const info = await readImageInfo(input.path);
  return {
    text: '',
    spans: [],
    format: 'image',
    kind: 'image',
    title: null,
    metadata: { ...info },
    warnings: info.width === null ? [`the ${info.format.toUpperCase()} header gives no image size`] : [],
  };
});
