import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../support/cli.ts';

/** `rhizome diagnostics` writes the server's bundle with the command's own findings, and no secret. */
describe('rhizome diagnostics', () => {
  let cli: CliServer;
  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  it('writes a zip with every section and without the API key or the password', async () => {
    const file = path.join(cli.work, 'bundle.zip');
    const { code, output } = await cli.rhizome(['diagnostics', '-o', file, '-d', 'default']);
    expect(code, output).toBe(0);
    expect(output).toContain(`Wrote ${file} (`);
    const zip = await JSZip.loadAsync(fs.readFileSync(file));
    const names = Object.keys(zip.files);
    for (const name of ['system.json', 'settings.json', 'databases.json', 'queue.json', 'logs/cortex.log'])
      expect(names).toContain(name);
    for (const name of ['edition.json', 'health.json', 'doctor.json', 'database.json']) expect(names).toContain(name);
    const doctor = JSON.parse(await zip.file('doctor.json')!.async('string')) as { checks: { name: string }[] };
    expect(doctor.checks.map((check) => check.name)).toContain('authentication');
    expect(JSON.parse(await zip.file('database.json')!.async('string'))).toMatchObject({ name: 'default' });
    const everything = (
      await Promise.all(Object.values(zip.files).map((entry) => (entry.dir ? '' : entry.async('string'))))
    ).join('\n');
    expect(everything).not.toContain(cli.key);
    expect(everything).not.toContain('correct horse battery');
  }, 60_000);

  it('names the file after the time in the current directory without -o', async () => {
    const { code, output } = await cli.rhizome(['diagnostics', '--json']);
    expect(code, output).toBe(0);
    const written = JSON.parse(output) as { path: string; bytes: number };
    expect(path.basename(written.path)).toMatch(/^rhizome-diagnostics-\d{8}-\d{6}\.zip$/);
    expect(fs.statSync(written.path).size).toBe(written.bytes);
    fs.rmSync(written.path);
  }, 60_000);
});
