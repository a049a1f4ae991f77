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

  it('--vram applies the largest model preset that fits, and refuses what no preset fits', async () => {
    const fresh = await startTestServer();
    try {
      const env = { RHIZOME_URL: fresh.url, RHIZOME_USERNAME: 'operator', RHIZOME_PASSWORD: 'correct horse battery' };
      const tooSmall = await runRhizome(['setup', '--non-interactive', '--vram', '8', '--no-test'], work, env, 110_000);
      expect(tooSmall.code).toBe(2);
      expect(tooSmall.output).toContain('no model preset fits 8 GB (the smallest needs 16 GB)');
      const cookie = (
        await fresh.call('POST', '/auth/login', { body: { username: 'operator', password: 'correct horse battery' } })
      ).cookie;
      const settings = async () =>
        ((await fresh.call('GET', '/settings', { cookie })).body as { llm: Record<string, unknown> }).llm;
      expect((await settings()).chat_provider).not.toBe('localllm');
      const wrongProvider = await runRhizome(['setup', '--non-interactive', '-p', 'openai', '--vram', '24'], work, env);
      expect(wrongProvider.code).toBe(2);

      const { code, output } = await runRhizome(
        ['setup', '--non-interactive', '--force', '--vram', '30', '--no-test'],
        work,
        env,
        110_000,
      );
      expect(code, output).toBe(0);
      expect(output).toContain('Preset: 24 GB VRAM (qwen3:30b)');
      expect(await settings()).toMatchObject({
        chat_provider: 'localllm',
        localllm_chat_model: 'qwen3:30b',
        localllm_extraction_model: 'qwen3:30b-instruct',
      });
    } finally {
      await fresh.stop();
    }
  }, 240_000);

  it('refuses without a terminal unless --non-interactive', async () => {
    const { code, output } = await runRhizome(['setup'], work, env());
    expect(code).toBe(2);
    expect(output).toContain('--non-interactive');
  }, 60_000);
});
