import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFound } from '@rhizome/contracts/errors';
import { logServices, readAllLogs, readServiceLog } from '../../src/observability/logs.ts';

let logsDir = '';

beforeEach(() => {
  logsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-logs-'));
});

afterEach(() => {
  fs.rmSync(logsDir, { recursive: true, force: true });
});

function write(service: string, content: string): void {
  fs.writeFileSync(path.join(logsDir, `${service}.log`), content);
}

function numbered(count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${i}\n`).join('');
}

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from }, (_, i) => `line ${from + i}`);
}

describe('readServiceLog', () => {
  it('lists the services of the API plus auth-verify', () => {
    expect([...logServices]).toEqual(['cortex', 'neuron', 'auth-verify', 'nginx', 'valkey']);
  });

  it('returns exactly the last lines, oldest first, of a file much larger than one read block', async () => {
    write('cortex', numbered(50_000));
    expect(await readServiceLog(logsDir, 'cortex', 10)).toEqual({
      service: 'cortex',
      lines: range(49_990, 50_000),
      total_lines: 10,
    });
    const many = await readServiceLog(logsDir, 'cortex', 10_000);
    expect(many.lines).toEqual(range(40_000, 50_000));
    expect(many.total_lines).toBe(10_000);
  });

  it('returns the whole file when it has fewer lines than asked', async () => {
    write('neuron', numbered(3));
    expect((await readServiceLog(logsDir, 'neuron', 100)).lines).toEqual(range(0, 3));
  });

  it('reads a file without a trailing newline, and strips CRLF endings', async () => {
    write('nginx', 'a\r\nb\r\nc');
    expect((await readServiceLog(logsDir, 'nginx', 2)).lines).toEqual(['b', 'c']);
    expect((await readServiceLog(logsDir, 'nginx', 5)).lines).toEqual(['a', 'b', 'c']);
  });

  it('decodes a multi-byte character split across two read blocks', async () => {
    // 6 + 90,002 + 1 bytes: the 64 KiB block boundary falls inside a 3-byte '€'.
    const long = `${'€'.repeat(30_000)}ab`;
    write('valkey', `first\n${long}\n`);
    expect((await readServiceLog(logsDir, 'valkey', 1)).lines).toEqual([long]);
    expect((await readServiceLog(logsDir, 'valkey', 2)).lines).toEqual(['first', long]);
  });

  it('returns an empty list for an empty or missing file', async () => {
    write('cortex', '');
    expect(await readServiceLog(logsDir, 'cortex', 10)).toEqual({ service: 'cortex', lines: [], total_lines: 0 });
    expect(await readServiceLog(logsDir, 'neuron', 10)).toEqual({ service: 'neuron', lines: [], total_lines: 0 });
  });

  it('rejects an unknown service, including path tricks, as not found', async () => {
    write('cortex', 'x\n');
    for (const service of ['postgres', '../logs/cortex', 'cortex.log']) {
      const error = await readServiceLog(logsDir, service, 10).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFound);
      expect(error).toMatchObject({
        code: 'NOT_FOUND',
        details: { resource_type: 'log_service', identifier: service },
      });
    }
  });

  it('clamps the line count to 1-10000', async () => {
    write('cortex', numbered(10_005));
    expect((await readServiceLog(logsDir, 'cortex', 0)).lines).toEqual(['line 10004']);
    expect((await readServiceLog(logsDir, 'cortex', 50_000)).total_lines).toBe(10_000);
  });

  it('reads only the end of a file too large to read whole', async () => {
    // A 3 GiB sparse prefix: reading the file whole would fail (over the 2 GiB buffer limit) or take far too long.
    const file = path.join(logsDir, 'cortex.log');
    fs.closeSync(fs.openSync(file, 'w'));
    fs.truncateSync(file, 3 * 1024 ** 3);
    fs.appendFileSync(file, '\nlast one\nlast two\n');
    expect((await readServiceLog(logsDir, 'cortex', 2)).lines).toEqual(['last one', 'last two']);
  });

  it('stops at a bounded number of bytes instead of reading a giant line whole', async () => {
    write('neuron', `short\n${'x'.repeat(17 * 1024 * 1024)}\nlast\n`);
    expect((await readServiceLog(logsDir, 'neuron', 3)).lines).toEqual(['last']);
  });
});

describe('readAllLogs', () => {
  // nginx and valkey write local time without a zone; build every timestamp from one local instant.
  const base = new Date(2026, 10, 21, 20, 1, 0).getTime();
  const iso = (offsetMs: number) => new Date(base + offsetMs).toISOString();
  const winston = (message: string, offsetMs: number) =>
    JSON.stringify({ level: 'info', message, service: 'x', timestamp: iso(offsetMs) });

  function writeMixed(): void {
    write('cortex', [winston('c1', 500), winston('boom', 3000), '    at frame one', '    at frame two', ''].join('\n'));
    write('neuron', [winston('n1', 1200), winston('n2', 4000), ''].join('\n'));
    write('auth-verify', `${winston('a1', 3500)}\n`);
    write('nginx', '2026/11/21 20:01:01 [error] 123#123: *1 upstream timed out\n');
    write('valkey', '12345:M 21 Nov 2026 20:01:02.500 * Ready to accept connections\n');
  }

  it('interleaves the three formats by timestamp, continuation lines staying with their entry', async () => {
    writeMixed();
    const all = await readAllLogs(logsDir, 100);
    expect(all).toEqual({
      service: null,
      lines: [
        `[cortex] ${winston('c1', 500)}`,
        '[nginx] 2026/11/21 20:01:01 [error] 123#123: *1 upstream timed out',
        `[neuron] ${winston('n1', 1200)}`,
        '[valkey] 12345:M 21 Nov 2026 20:01:02.500 * Ready to accept connections',
        `[cortex] ${winston('boom', 3000)}`,
        '[cortex]     at frame one',
        '[cortex]     at frame two',
        `[auth-verify] ${winston('a1', 3500)}`,
        `[neuron] ${winston('n2', 4000)}`,
      ],
      total_lines: 9,
    });
  });

  it('keeps only the newest lines of the merged list, oldest first', async () => {
    writeMixed();
    const all = await readAllLogs(logsDir, 4);
    expect(all.lines).toEqual([
      '[cortex]     at frame one',
      '[cortex]     at frame two',
      `[auth-verify] ${winston('a1', 3500)}`,
      `[neuron] ${winston('n2', 4000)}`,
    ]);
    expect(all.total_lines).toBe(4);
  });

  it('sorts continuation lines cut off from their entry just before the next entry of their file', async () => {
    write('cortex', [winston('old', 100), '    at orphan frame', winston('c5', 5000), '    at frame'].join('\n'));
    write('neuron', [winston('n3', 3000), winston('n4', 4000)].join('\n'));
    expect((await readAllLogs(logsDir, 3)).lines).toEqual([
      '[cortex]     at orphan frame',
      `[cortex] ${winston('c5', 5000)}`,
      '[cortex]     at frame',
    ]);
  });

  it('uses the winston top-level timestamp, not one nested in the metadata', async () => {
    const nested = JSON.stringify({ message: 'm', meta: { timestamp: iso(9000) }, timestamp: iso(1000) });
    write('cortex', `${nested}\n`);
    write('neuron', `${winston('n', 2000)}\n`);
    expect((await readAllLogs(logsDir, 10)).lines).toEqual([`[cortex] ${nested}`, `[neuron] ${winston('n', 2000)}`]);
  });

  it('returns an empty list when no log exists', async () => {
    expect(await readAllLogs(logsDir, 10)).toEqual({ service: null, lines: [], total_lines: 0 });
  });
});
