/** A two-group source and the fake model's answers for it, shared by the chunk history tests. */
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { startFakeOllama, type FakeOllama } from '../support/fakes/ollama.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const longer = (text: string) => `${text} It is described in many biographies, museum guides and school books.`;

export const twoGroupDocument = [
  'Marie Curie was born in Warsaw in 1867. Marie Curie studied physics and chemistry for many years and became a famous scientist.',
  'Niels Bohr was born in Copenhagen in 1885. Niels Bohr studied physics at the University of Copenhagen.',
].join('\n\n');

/** The answers of both passes for each group, in the order the groups are extracted (one model call at a time). */
export const chunkScript = {
  first: [
    [
      `E|Marie Curie|Person|Madame Curie|0.95|S1, S2|${longer('Polish-born physicist and chemist who studied radioactivity.')}`,
      `E|Warsaw|Place||0.9|S1|${longer('Capital city of Poland where Marie Curie was born.')}`,
      `E|Atlantis|Place||0.9|S9|${longer('A mythical island that no sentence of the group mentions at all.')}`,
    ].join('\n'),
    'R|0|1|born_in|0.9|S1|The first sentence states that Marie Curie was born in the city of Warsaw.',
  ],
  second: [
    [
      `E|Niels Bohr|Person||0.95|S1, S2|${longer('Danish physicist known for his model of the atom.')}`,
      `E|Copenhagen|Place||0.9|S1|${longer('Capital city of Denmark where Niels Bohr was born.')}`,
    ].join('\n'),
    'R|0|1|born_in|0.9|S1|The first sentence states that Niels Bohr was born in the city of Copenhagen.',
  ],
  /** A different answer for the second group, given on its re-run. */
  secondAgain: [
    [
      `E|Niels Bohr|Person||0.95|S1, S2|${longer('Danish physicist known for his model of the atom.')}`,
      `E|University of Copenhagen|Organization||0.9|S2|${longer('The university where Niels Bohr studied physics.')}`,
    ].join('\n'),
    'R|0|1|educated_at|0.9|S2|The second sentence says Niels Bohr studied physics at the University of Copenhagen.',
  ],
};

type Call = (method: string, apiPath: string, body?: unknown) => Promise<{ status: number; text: string }>;

/** A local model server at `url`, and chunking that makes each paragraph a group of its own. */
export async function useTwoGroups(call: Call, url: string): Promise<void> {
  const configured = await call('PATCH', '/settings', {
    llm: {
      chat_provider: 'localllm',
      localllm_chat_model: 'qwen3:8b',
      localllm_extraction_model: 'qwen3:8b',
      localllm_instances: [{ id: 'gpu', name: 'GPU', base_url: url, enabled: true }],
    },
    chunking: { small_chunk_size: 130, small_chunk_overlap: 0, min_chunk_size: 50, target_group_tokens: 1 },
  });
  if (configured.status !== 200) throw new Error(`settings: ${configured.status} ${configured.text}`);
}

export interface CommittedTwoGroups {
  server: TestServer;
  cookie: string;
  ollama: FakeOllama;
  sourceId: string;
}

/** A server whose one source, two groups long, was extracted by the fake model with `chunkScript` and committed. */
export async function committedTwoGroupSource(): Promise<CommittedTwoGroups> {
  const server = await startTestServer();
  const cookie = await setUpAccount(server);
  const ollama = await startFakeOllama({ models: ['qwen3:8b', 'qwen3:14b'] });
  await useTwoGroups((method, apiPath, body) => server.call(method, apiPath, { cookie, body }), ollama.url);
  ollama.scriptChat(...chunkScript.first, ...chunkScript.second);
  const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'two.txt', content: twoGroupDocument }], {
    domain: 'biographical',
    auto_confirm: 'true',
  });
  if (accepted.status !== 202) throw new Error(`upload: ${accepted.status} ${accepted.text}`);
  const sourceId = (accepted.body as SourceResponseBody).id;
  const source = await waitForSource(server, cookie, sourceId, ['committed', 'error'], 60_000);
  if (source.status !== 'committed') throw new Error(`the source ended ${source.status}: ${source.error_message}`);
  return { server, cookie, ollama, sourceId };
}
