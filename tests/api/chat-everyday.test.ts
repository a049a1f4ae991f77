import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkCitation } from '@rhizome/core/chat';
import { createChat, readEvents, sendMessage, type ChatEventFrame } from '../support/chats.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadTechnicalFixtures } from '../support/sources.ts';

const documents = ['ssh.1.txt', 'git-add.1.txt', 'redis-README.md', 'python-history.txt'];

/** The answer as a reader sees it: entity markers as their labels, citation markers left out, one space between words. */
const readable = (content: string) =>
  content
    .replace(/\[\[(?:node|edge):[^|\]]+\|([^\]]*)\]\]/g, '$1')
    .replace(/\[\[cite:[^\]]*\]\]/g, '')
    .replace(/\s+/g, ' ');

// A new user's technical documents on a fresh install, extracted and answered offline by the builtin provider.
describe('builtin chat over everyday technical documents', () => {
  let server: TestServer;
  let cookie: string;
  const sources = new Map<string, string>();

  async function ask(question: string): Promise<{ events: ChatEventFrame[]; answer: string; cited: string[] }> {
    const chat = await createChat(server, cookie);
    await sendMessage(server, cookie, chat.id, question);
    const read = await readEvents(server, cookie, chat.id);
    const done = read.events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', status: 'completed' });
    const citations = Object.values(done.chunk_citations as Record<string, ChunkCitation>);
    const names = new Map([...sources].map(([name, id]) => [id, name]));
    return {
      events: read.events,
      answer: readable(done.content as string),
      cited: [...new Set(citations.map((citation) => names.get(citation.source_id) ?? citation.source_id))],
    };
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    for (const [name, id] of await uploadTechnicalFixtures(server, cookie, documents)) sources.set(name, id);
  }, 180_000);
  afterAll(() => server.stop());

  it('says who created Python from the history keyword search finds, instead of "nothing relevant"', async () => {
    const { answer, cited, events } = await ask('Who created Python?');
    expect(answer).toContain('Python was created in the early 1990s by Guido van Rossum');
    expect(cited).toContain('python-history.txt');
    // One retrieval over every search mode, shown as the turn's tool call.
    const calls = events.filter((event) => event.type === 'tool_calls');
    expect(calls).toEqual([
      expect.objectContaining({ tool_calls: [expect.objectContaining({ name: 'fused_search' })] }),
    ]);
  });

  it('answers what git add does from its manual page, not with a Redis link list', async () => {
    const { answer, cited } = await ask('What does the git add command do?');
    expect(answer).not.toContain('The full list of Redis commands');
    expect(cited).toEqual(['git-add.1.txt']);
  });

  it('answers how to forward a port over ssh from the -L, -R and -D options, not the RFC list', async () => {
    const { answer, cited } = await ask('how do I forward a port over ssh');
    expect(answer).toMatch(/forward/i);
    expect(answer).not.toMatch(/RFC 425\d/);
    expect(cited).toContain('ssh.1.txt');
  });

  it('quotes whole sentences around code and host names', async () => {
    const moved = await ask('where did the Python developers move in 2000');
    expect(moved.answer).toContain('moved to BeOpen.com to form the BeOpen PythonLabs team.');
    const aof = await ask('what does aof.c do for the AOF rewrite');
    expect(aof.answer).toContain('by `aof.c` in order to perform the AOF rewrite');
    expect(aof.answer).not.toMatch(/(?:^|\s)c` in order/);
  });
});
