import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { DomainError } from '@rhizome/contracts/errors';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A settings file path inside a fresh temporary data directory (removed after each test). */
export function tempSettingsFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-settings-'));
  created.push(dir);
  return path.join(dir, 'settings.json');
}

export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The domain failure `run` throws; fails the test when it throws nothing or something else. */
export function failureOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a domain failure, nothing was thrown');
}
