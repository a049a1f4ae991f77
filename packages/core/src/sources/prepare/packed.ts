import type { PreparedChunk, PreparedDocument } from './prepare.ts';

/**
 * A prepared document as it crosses the thread boundary: the chunks' texts travel as one UTF-8 buffer
 * that is transferred, not copied. Cloned as strings they took a serialisation buffer of twice their
 * size in the preparation thread and a second copy on the receiving thread (a 50 MB text: 125 MB and
 * 110 MB at once); this way the receiver holds the 57 MB buffer and decodes each chunk when it is read.
 */
export interface PackedDocument extends Omit<PreparedDocument, 'chunks'> {
  chunks: Omit<PreparedChunk, 'content'>[];
  /** The chunks' contents, UTF-8, back to back. */
  contents: Uint8Array;
  /** Where each chunk's content ends in `contents`. */
  ends: Float64Array;
}

export function packDocument(document: PreparedDocument): PackedDocument {
  const ends = new Float64Array(document.chunks.length);
  let size = 0;
  document.chunks.forEach((chunk, index) => {
    size += Buffer.byteLength(chunk.content);
    ends[index] = size;
  });
  // Not from the shared pool: the buffer must own its memory to be transferred.
  const contents = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  const chunks = document.chunks.map(({ content, ...rest }) => {
    offset += contents.write(content, offset);
    return rest;
  });
  return { ...document, chunks, contents, ends };
}

/** What the receiving thread must transfer rather than copy. */
export function packedBuffers(packed: PackedDocument): ArrayBuffer[] {
  return [packed.contents.buffer as ArrayBuffer, packed.ends.buffer as ArrayBuffer];
}

/** The document again, each chunk's `content` decoded from the buffer whenever it is read. */
export function unpackDocument(packed: PackedDocument): PreparedDocument {
  const contents = Buffer.from(packed.contents.buffer, packed.contents.byteOffset, packed.contents.byteLength);
  const { ends } = packed;
  const chunks = packed.chunks.map((chunk, index) => {
    const from = index === 0 ? 0 : ends[index - 1];
    const to = ends[index];
    return Object.defineProperty(chunk, 'content', {
      get: () => contents.toString('utf8', from, to),
      enumerable: true,
    }) as PreparedChunk;
  });
  const { contents: _contents, ends: _ends, ...document } = packed;
  return { ...document, chunks };
}
