import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRhizome } from '../support/cli.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

/** `rhizome setup --non-interactive` on a server without an account, then again. */
describe('rhizome setup', () => {
  let server: TestServer;
  let work: string;
  const env = () => ({
    RHIZOME_URL: server.url,
    RHIZOME_USERNAME: 'operator',
    RHIZOME_PASSWORD: 'correct horse battery',
  });
  beforeAll(async () => {
    server = await startTestServer();
    work = tempDataDir();
  }, 60_000);
  afterAll(() => server.stop());

  it('creates the account, stores a key and verifies the server', async () => {
    const { code, output } = await runRhizome(['setup', '--non-interactive'], work, env(), 110_000);
    expect(code, output).toBe(0);
    expect(output).toContain('Created the account operator');
    expect(output).toContain('Verified');
    expect((await server.call('GET', '/auth/status')).body).toMatchObject({ setup_needed: false });
    const stored = JSON.parse(fs.readFileSync(path.join(work, 'config', 'cli.json'), 'utf8')) as { url: string };
    expect(stored.url).toBe(server.url);
    const status = await runRhizome(['status'], work, { RHIZOME_URL: server.url });
    expect(status.code, status.output).toBe(0);
  }, 120_000);

  it('says so and exits 0 on a server already set up', async () => {
    const { code, output } = await runRhizome(['setup', '--non-interactive'], work, env(), 110_000);
    expect(code, output).toBe(0);
    expect(output).toContain('already set up');
  }, 120_000);

  it('refuses without a terminal unless --non-interactive', async () => {
    const { code, output } = await runRhizome(['setup'], work, env());
    expect(code).toBe(2);
    expect(output).toContain('--non-interactive');
  }, 60_000);
});
