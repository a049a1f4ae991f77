import { open } from 'node:fs/promises';

/** Where the samples of a PCM WAV file lie, and their format. */
export interface WavLayout {
  dataStart: number;
  dataBytes: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

/** Reads the RIFF chunks up to `data` (ffmpeg may write a LIST chunk before it). */
export async function readWavLayout(wavPath: string): Promise<WavLayout> {
  const handle = await open(wavPath, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE')
      throw new Error('not a WAV file');
    let position = 12;
    let format: Omit<WavLayout, 'dataStart' | 'dataBytes'> | null = null;
    while (position + 8 <= head.length) {
      const id = head.toString('latin1', position, position + 4);
      const length = head.readUInt32LE(position + 4);
      if (id === 'fmt ' && position + 24 <= head.length)
        format = {
          channels: head.readUInt16LE(position + 10),
          sampleRate: head.readUInt32LE(position + 12),
          bitsPerSample: head.readUInt16LE(position + 22),
        };
      if (id === 'data') {
        if (!format) break;
        const dataStart = position + 8;
        // A streamed WAV leaves the data length unset (0 or 0xFFFFFFFF): the samples run to the end.
        const dataBytes = length === 0 || length === 0xffffffff ? size - dataStart : Math.min(length, size - dataStart);
        return { ...format, dataStart, dataBytes };
      }
      position += 8 + length + (length % 2);
    }
    throw new Error('the WAV file has no fmt and data chunks');
  } finally {
    await handle.close();
  }
}

export function wavSeconds(layout: WavLayout): number {
  return layout.dataBytes / (layout.sampleRate * layout.channels * (layout.bitsPerSample / 8));
}

function wavHeader(layout: WavLayout, dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = layout.channels * (layout.bitsPerSample / 8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(layout.channels, 22);
  header.writeUInt32LE(layout.sampleRate, 24);
  header.writeUInt32LE(layout.sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(layout.bitsPerSample, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** One stretch of the recording as a WAV file of its own, and where it starts in seconds. */
export interface WavPiece {
  startSeconds: number;
  bytes: Buffer<ArrayBuffer>;
}

/** The recording cut into WAV pieces of at most `pieceSeconds`, read one at a time. */
export async function* wavPieces(wavPath: string, layout: WavLayout, pieceSeconds: number): AsyncGenerator<WavPiece> {
  const bytesPerSecond = layout.sampleRate * layout.channels * (layout.bitsPerSample / 8);
  const blockAlign = layout.channels * (layout.bitsPerSample / 8);
  const pieceBytes = Math.max(blockAlign, Math.floor((pieceSeconds * bytesPerSecond) / blockAlign) * blockAlign);
  const handle = await open(wavPath, 'r');
  try {
    for (let offset = 0; offset < layout.dataBytes; offset += pieceBytes) {
      const length = Math.min(pieceBytes, layout.dataBytes - offset);
      const bytes = Buffer.alloc(44 + length);
      wavHeader(layout, length).copy(bytes, 0);
      await handle.read(bytes, 44, length, layout.dataStart + offset);
      yield { startSeconds: offset / bytesPerSecond, bytes };
    }
  } finally {
    await handle.close();
  }
}
