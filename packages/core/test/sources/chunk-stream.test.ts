import { describe, expect, it } from 'vitest';
import { ChunkStream } from '../../src/sources/prepare/chunk-stream.ts';
import { PackedChunkList, packChunks } from '../../src/sources/prepare/packed.ts';
import type { PreparedChunk } from '../../src/sources/prepare/prepare.ts';

const chunk = (index: number): PreparedChunk => ({
  id: `chk_${String(index).padStart(24, '0')}`,
  index,
  content: `chunk ${index}`,
  start: index * 10,
  end: index * 10 + 7,
  page: null,
  pageStarts: null,
  section: null,
  tokenEstimate: 2,
  originalStart: index * 10,
  originalEnd: index * 10 + 7,
  offsetMatch: 'exact',
});

const part = (from: number, to: number) =>
  new PackedChunkList(packChunks(Array.from({ length: to - from }, (_, offset) => chunk(from + offset))));

const indexes = (chunks: PreparedChunk[]) => chunks.map((each) => each.index);

describe('the chunks of a document being prepared', () => {
  it('are taken a wave at a time across the parts they arrived in, each wave once it is complete', async () => {
    const stream = new ChunkStream();
    stream.push(part(0, 3));
    let first: PreparedChunk[] | null = null;
    const taking = stream.take(5).then((chunks) => (first = chunks));
    await new Promise((resolve) => setImmediate(resolve));
    expect(first).toBeNull();
    stream.push(part(3, 4));
    stream.push(part(4, 9));
    expect(indexes(await taking)).toEqual([0, 1, 2, 3, 4]);
    expect(stream.received).toBe(9);
    const rest = stream.take(5);
    stream.end();
    expect(indexes(await rest)).toEqual([5, 6, 7, 8]);
    expect(await stream.take(5)).toEqual([]);
  });

  it('tell a failure of the preparation to whoever waits for chunks', async () => {
    const stream = new ChunkStream();
    stream.push(part(0, 2));
    const waiting = stream.take(5);
    stream.fail(new Error('the file could not be read'));
    await expect(waiting).rejects.toThrow('the file could not be read');
    await expect(stream.take(1)).rejects.toThrow('the file could not be read');
  });
});
