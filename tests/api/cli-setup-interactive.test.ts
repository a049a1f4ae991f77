import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { spawnRhizomeInTerminal } from '../support/cli.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

const down = '\x1b[B';
const enter = '\r';

/** `rhizome setup` as a person runs it: on a terminal, answering its prompts. */
describe('rhizome setup on a terminal', () => {
  let server: TestServer;
  let ollama: FakeOllama;
  beforeAll(async () => {
    [server, ollama] = await Promise.all([
      startTestServer(),
      startFakeOllama({ models: ['qwen3:8b', 'llama3.2:latest'] }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await ollama.close();
  });

  it('asks for the account, checks the local model server, offers its models, and saves the choice', async () => {
    const work = tempDataDir();
    const setup = spawnRhizomeInTerminal(['setup', '--url', server.url], work);
    try {
      await setup.sees('Account name');
      setup.type(`operator${enter}`);
      await setup.sees('Password');
      setup.type(`short${enter}`);
      await setup.sees('At least 8 characters');
      setup.type(`${'\x7f'.repeat(5)}correct horse battery${enter}`);
      await setup.sees('Model provider');
      await setup.sees('Local model server (Ollama)');
      setup.type(`${down}${enter}`);
      await setup.sees('Model server URL');
      setup.type(`${'\x7f'.repeat(40)}http://127.0.0.1:1${enter}`);
      await setup.sees('✗');
      await setup.sees('Use this URL anyway?');
      setup.type(`n${enter}`);
      await setup.sees('Model server URL');
      setup.type(`${'\x7f'.repeat(40)}${ollama.url}${enter}`);
      await setup.sees('✓');
      await setup.sees('Chat and extraction model');
      setup.type(`${down}${enter}`);
      await setup.sees('Embeddings');
      setup.type(`${down}${enter}`);
      await setup.sees('Verified');
      expect(await setup.exited, setup.output()).toBe(0);
    } finally {
      await setup.stop();
    }
    expect(setup.output()).not.toContain('correct horse battery');
    const signIn = await server.call('POST', '/auth/login', {
      body: { username: 'operator', password: 'correct horse battery' },
    });
    expect(signIn.status).toBe(200);
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0];
    const settings = (await server.call('GET', '/settings', { cookie })).body as {
      llm: { chat_provider: string; localllm_chat_model: string; localllm_instances: { base_url: string }[] };
      embedding: { provider: string };
    };
    expect(settings.llm.chat_provider).toBe('localllm');
    expect(settings.llm.localllm_chat_model).toBe('llama3.2:latest');
    expect(settings.llm.localllm_instances[0].base_url).toBe(ollama.url);
    expect(settings.embedding.provider).toBe('builtin');
  }, 120_000);

  it('ends with exit code 130 when the person presses Ctrl+C at a prompt', async () => {
    const fresh = await startTestServer();
    try {
      const setup = spawnRhizomeInTerminal(['setup', '--url', fresh.url], tempDataDir());
      await setup.sees('Account name');
      setup.type('\x03');
      expect(await setup.exited).toBe(130);
      expect(setup.output()).toContain('setup interrupted');
      expect((await fresh.call('GET', '/auth/status')).body).toMatchObject({ setup_needed: true });
    } finally {
      await fresh.stop();
    }
  }, 120_000);
});
