/** Audio and video containers from their first bytes; the media type says which container. */
import type { SniffResult } from './sniff.ts';

const audio = (mediaType: string): SniffResult => ({ format: 'audio', mediaType });
const video = (mediaType: string): SniffResult => ({ format: 'video', mediaType });

/**
 * An MPEG audio frame header: sync bits, a layer, and a bitrate and sample rate that are not reserved.
 * FF FE and FF FF are left out: they begin UTF-16 text far more often than MPEG-1 Layer I audio.
 */
function mpegFrame(b: Buffer, at: number): boolean {
  if (b.length < at + 4 || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0 || b[at + 1] >= 0xfe) return false;
  const layer = (b[at + 1] >> 1) & 0x03;
  const bitrate = b[at + 2] >> 4;
  const rate = (b[at + 2] >> 2) & 0x03;
  return layer !== 0 && bitrate !== 0x0f && rate !== 0x03;
}

/** ADTS (raw AAC): sync bits with layer 0. */
function adtsFrame(b: Buffer): boolean {
  return b.length >= 7 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0;
}

/** ISO base media (MP4, M4A, MOV): an `ftyp` box first, whose major brand tells audio from video. */
function isoMedia(b: Buffer): SniffResult | null {
  if (b.length < 12 || b.toString('latin1', 4, 8) !== 'ftyp') return null;
  const brand = b.toString('latin1', 8, 12);
  if (brand === 'M4A ' || brand === 'M4B ' || brand === 'F4A ') return audio('audio/mp4');
  if (brand === 'qt  ') return video('video/quicktime');
  return video('video/mp4');
}

/** Matroska and WebM: the EBML magic, then the DocType in the header. */
function matroska(b: Buffer): SniffResult | null {
  if (b.length < 4 || b.readUInt32BE(0) !== 0x1a45dfa3) return null;
  return b.subarray(0, 64).includes('webm') ? video('video/webm') : video('video/x-matroska');
}

export function sniffRecording(b: Buffer): SniffResult | null {
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF') {
    const kind = b.toString('latin1', 8, 12);
    if (kind === 'WAVE') return audio('audio/wav');
    if (kind === 'AVI ') return video('video/x-msvideo');
    return null;
  }
  if (b.length >= 4 && b.toString('latin1', 0, 4) === 'fLaC') return audio('audio/flac');
  // Ogg (Vorbis, Opus): ffmpeg reads its first audio stream whatever else it carries.
  if (b.length >= 4 && b.toString('latin1', 0, 4) === 'OggS') return audio('audio/ogg');
  if (b.length >= 10 && b.toString('latin1', 0, 3) === 'ID3') return audio('audio/mpeg');
  if (adtsFrame(b)) return audio('audio/aac');
  if (mpegFrame(b, 0)) return audio('audio/mpeg');
  return isoMedia(b) ?? matroska(b);
}
