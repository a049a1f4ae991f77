import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialsFile, type Credentials } from '../src/credentials.ts';
import { GenerationCounter } from '../src/generation.ts';
import { untilHolds } from '../../../tests/support/wait.ts';

const credentials = (epoch: number): Credentials => ({
  version: 1,
  account: { username: 'operator', password_hash: 'hash', created_at: '2026-01-01T00:00:00Z' },
  session_epoch: epoch,
  api_keys: [],
});

describe('credentials change detection across processes', () => {
  it('counts bumps from any instance and reports -1 before the first', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gen-')), 'c.gen');
    const reader = new GenerationCounter(file);
    expect(reader.current()).toBe(-1);
    new GenerationCounter(file).bump();
    new GenerationCounter(file).bump();
    expect(reader.current()).toBe(2);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    reader.close();
  });

  it('sees a write by another instance on the very next read', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cred-')), 'credentials.json');
    const writer = new CredentialsFile(file);
    const reader = new CredentialsFile(file);
    writer.write(credentials(0));
    expect(reader.read()?.session_epoch).toBe(0);
    for (let epoch = 1; epoch <= 50; epoch++) {
      writer.write(credentials(epoch));
      expect(reader.read()?.session_epoch).toBe(epoch);
    }
  });

  it('still notices a hand edit that bypasses the counter within the full-check interval', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cred-')), 'credentials.json');
    const reader = new CredentialsFile(file);
    new CredentialsFile(file).write(credentials(3));
    expect(reader.read()?.session_epoch).toBe(3);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(credentials(9)));
    fs.renameSync(`${file}.tmp`, file);
    await untilHolds(
      () => reader.read()?.session_epoch,
      (epoch) => epoch === 9,
      {
        timeoutMs: 3000,
        intervalMs: 100,
        what: 'the hand-edited session epoch',
      },
    );
  });
});
