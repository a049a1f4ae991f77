import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileWriter } from '../../src/ccx/data-file.ts';
import { sleep } from '../../../../tests/support/wait.ts';

function workFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'data-file-')), 'knowledge.json');
}

describe('DataFileWriter', () => {
  it('discards a file whose first write is still pending without an unhandled stream error', async () => {
    const errors: unknown[] = [];
    const onUncaught = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 20; round++) {
        const file = workFile();
        const writer = new DataFileWriter(file);
        await writer.write('{"nodes":[');
        // Long enough for the file to open and the write to start; short enough to find it in flight.
        for (let turn = 0; turn < round % 5; turn++) await new Promise((resolve) => setImmediate(resolve));
        await writer.write('\n],"edges":[');
        await writer.discard();
        expect(fs.existsSync(file)).toBe(false);
      }
      await sleep(50);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(errors).toEqual([]);
  });

  it('writes, digests and closes a file', async () => {
    const file = workFile();
    const writer = new DataFileWriter(file);
    await writer.write('{"a":');
    await writer.write('1}');
    const written = await writer.close();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(written.size).toBe(7);
    expect(written.sha256).toBe(createHash('sha256').update('{"a":1}').digest('base64'));
  });

  it('reports a failing disk write from the call that meets it', async () => {
    const writer = new DataFileWriter(path.join(os.tmpdir(), 'no-such-dir-data-file', 'x.json'));
    await expect(
      (async () => {
        await writer.write('x');
        await writer.close();
      })(),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    await writer.discard();
  });
});
