import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, tempDataDir, type CallResult, type TestServer } from '../support/server.ts';

/** Writes zeros into `file` until the filesystem it is on has no space left. */
function fillUp(file: string): void {
  const block = Buffer.alloc(64 * 1024);
  const fd = fs.openSync(file, 'w');
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
}

function expectOutOfSpace(result: CallResult): void {
  expect(result.status, result.text).toBe(507);
  expect(result.body).toMatchObject({
    error: 'INSUFFICIENT_STORAGE',
    message: expect.stringMatching(/no space left/i),
  });
}

/** A data directory on a small filesystem of its own (a tmpfs: CI runs as root), filled to the last byte. */
describe('a full disk', () => {
  let dataDir: string;
  let server: TestServer;
  let cookie: string;
  let key: string;
  const filler = () => path.join(dataDir, 'filler.bin');

  beforeAll(async () => {
    dataDir = tempDataDir();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dataDir]);
    server = await startTestServer({ dataDir });
    cookie = await setUpAccount(server);
    const created = await server.call('POST', '/auth/keys', { cookie, body: { name: 'reader' } });
    expect(created.status, created.text).toBe(201);
    key = (created.body as { key: string }).key;
    fillUp(filler());
  });

  afterAll(async () => {
    await server?.stop();
    execFileSync('umount', ['-l', dataDir]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers writes with 507 INSUFFICIENT_STORAGE and a message, and changes nothing', async () => {
    const before = (await server.call('GET', '/settings', { cookie })).body as { logging: { level: string } };
    expectOutOfSpace(await server.call('PATCH', '/settings', { cookie, body: { dark_mode: true } }));
    expectOutOfSpace(await server.call('POST', '/auth/keys', { cookie, body: { name: 'another' } }));
    // More than the database's write-ahead log holds already, so SQLite has to grow a file: SQLITE_FULL.
    const notes = 'Measured by the Curies in Paris. '.repeat(100_000);
    expectOutOfSpace(
      await server.call('POST', '/nodes', {
        cookie,
        body: { template_id: 'system_template_person', label: 'Too big to store', properties: { notes } },
      }),
    );
    expect((await server.call('GET', '/nodes?search=Too%20big', { cookie })).body).toMatchObject({
      pagination: { total: 0 },
    });
    const after = await server.call('GET', '/settings', { cookie });
    expect(after.body).toEqual(before);
    expect(fs.readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps reads working with an API key whose first use cannot be recorded', async () => {
    const read = await server.call('GET', '/sources', { key });
    expect(read.status, read.text).toBe(200);
    const me = await server.call('GET', '/auth/me', { key });
    expect(me.status, me.text).toBe(200);
  });

  it('takes writes again once space is freed', async () => {
    fs.rmSync(filler());
    const patched = await server.call('PATCH', '/settings', { cookie, body: { dark_mode: true } });
    expect(patched.status, patched.text).toBe(200);
    const read = await server.call('GET', '/sources', { key });
    expect(read.status, read.text).toBe(200);
  });
});
