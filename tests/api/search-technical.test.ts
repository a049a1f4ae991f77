import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadTechnicalFixtures } from '../support/sources.ts';

const documents = ['ssh.1.txt', 'git-add.1.txt', 'redis-README.md', 'python-history.txt', 'redis-copyright.txt'];

interface SearchBody {
  data: { result_type: 'node' | 'chunk'; chunk: { filename: string; content: string } | null }[];
}

const modes = ['keyword', 'hybrid', 'graph'];
const normalised = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();

// The reproductions on a fresh install: everyday documents, builtin extraction, no model server.
describe('search over everyday technical documents', () => {
  let server: TestServer;
  let cookie: string;

  /** The 1-based place of the first passage of `document` holding `answer` among the first 10 results, or null. */
  async function answerRank(mode: string, question: string, document: string, answer: string) {
    const query = new URLSearchParams({ q: question, search_type: mode, limit: '10' });
    const result = await server.call('GET', `/search?${query}`, { cookie });
    expect(result.status, result.text).toBe(200);
    const index = (result.body as SearchBody).data.findIndex(
      (item) => item.chunk?.filename === document && normalised(item.chunk.content).includes(normalised(answer)),
    );
    return index < 0 ? null : index + 1;
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    await uploadTechnicalFixtures(server, cookie, documents);
  }, 180_000);
  afterAll(() => server.stop());

  // Chat answered "nothing relevant" to the first, though keyword search had the passage.
  it.each([
    ['Who created Python?', 'python-history.txt', 'Python was created in the early 1990s by Guido van Rossum', modes],
    // Hybrid ranks this one 3rd to 10th depending on how far the corpus model has learned in the background.
    [
      'who holds the copyright of Redis',
      'redis-copyright.txt',
      'Copyright: © 2006-2014 Salvatore Sanfilippo',
      modes.filter((mode) => mode !== 'hybrid'),
    ],
  ])('puts the passage answering "%s" among the first five results', async (question, document, answer, checked) => {
    for (const mode of checked) expect(await answerRank(mode, question, document, answer), mode).toBeLessThanOrEqual(5);
  });

  it('shows passages, not entities, in the first five results of graph and hybrid search', async () => {
    for (const mode of ['graph', 'hybrid']) {
      const query = new URLSearchParams({ q: 'what does the git add command do', search_type: mode, limit: '10' });
      const body = (await server.call('GET', `/search?${query}`, { cookie })).body as SearchBody;
      expect(body.data.slice(0, 5).map((item) => item.result_type)).toEqual(Array(5).fill('chunk'));
    }
  });
});
