/** A vector as stored in SQLite: its float32 values in platform order (little-endian wherever Node runs here). */
export function encodeVector(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function decodeVector(blob: Buffer, dimensions: number): Float32Array {
  if (blob.byteLength !== dimensions * 4)
    throw new Error(`stored vector has ${blob.byteLength} bytes, expected ${dimensions * 4}`);
  // A Float32Array view needs 4-byte alignment, which pooled Buffers do not promise.
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}
