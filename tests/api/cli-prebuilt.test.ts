import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prebuiltEntry } from '../../packages/cli/bin/prebuilt.mjs';
import { tempDataDir } from '../support/server.ts';
import { runRhizome } from '../support/cli.ts';

const cliDist = path.resolve(import.meta.dirname, '../../packages/cli/dist');

describe('the prebuilt command line', () => {
  let dir = '';
  let dist = '';
  let source = '';
  beforeEach(async () => {
    dir = tempDataDir();
    dist = path.join(dir, 'dist');
    source = path.join(dir, 'command.ts');
    await fs.mkdir(dist);
    await fs.writeFile(source, 'export {};\n');
    await fs.writeFile(path.join(dist, 'inputs.json'), JSON.stringify([source]));
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(source, past, past);
    await fs.writeFile(path.join(dist, 'main.js'), '');
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('is used while it is newer than every source it was built from', () => {
    expect(prebuiltEntry(dist)).toBe(path.join(dist, 'main.js'));
  });

  it('is passed over once a source changes or vanishes, and when it is missing', async () => {
    const future = new Date(Date.now() + 60_000);
    await fs.utimes(source, future, future);
    expect(prebuiltEntry(dist)).toBeNull();
    await fs.rm(source);
    expect(prebuiltEntry(dist)).toBeNull();
    await fs.rm(path.join(dist, 'main.js'));
    expect(prebuiltEntry(dist)).toBeNull();
  });

  it('is what the tests run, and hands a command that runs the service here over to the sources', async () => {
    expect(prebuiltEntry(cliDist)).toBe(path.join(cliDist, 'main.js'));
    const work = tempDataDir();
    try {
      const created = await runRhizome(['db', 'migrate', 'apply'], work);
      expect(created.code, created.output).toBe(0);
      const status = await runRhizome(['db', 'migrate', 'status'], work);
      expect(status.code, status.output).toBe(0);
      expect(status.output).toMatch(/^default: revision \d{4}; applied 0001_baseline/m);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }, 90_000);
});
