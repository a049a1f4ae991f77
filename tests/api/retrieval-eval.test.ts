import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type EvalClient } from '../../tools/eval/client.ts';
import { ingestPassages, type IngestTimes } from '../../tools/eval/ingest.ts';
import { loadKit, subsetKit, type Kit } from '../../tools/eval/kit.ts';
import { scoreBm25, scoreMode, type ModeScore } from '../../tools/eval/questions.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The guard of `pnpm eval:retrieval`: the same ingest and questions on 200 passages and 10 questions
 * of the 2Wiki kit, through the HTTP API of a fresh server with the builtin provider. It runs, every
 * mode answers, and graph search, which finds second hops, leads.
 */
describe('retrieval eval (200 passages, 10 questions)', () => {
  let server: TestServer;
  let client: EvalClient;
  let kit: Kit;
  let times: IngestTimes;
  const scores = new Map<string, ModeScore>();

  beforeAll(async () => {
    server = await startTestServer();
    client = await connect(server.base);
    kit = subsetKit(loadKit(), 200, 10);
    times = await ingestPassages(client, kit.passages, { extract: true });
    for (const mode of ['keyword', 'semantic', 'hybrid', 'graph'])
      scores.set(mode, await scoreMode(client, kit, mode, 8));
  }, 240_000);
  afterAll(() => server.stop());

  it('ingests and extracts every passage as its own source', () => {
    expect(kit.passages).toHaveLength(200);
    expect(kit.questions).toHaveLength(10);
    expect(times.failed).toBe(0);
    expect(times.totalSeconds).toBeGreaterThanOrEqual(times.ingestSeconds);
  });

  it('finds every supporting passage of more questions by graph than by plain BM25 or semantic search, and no fewer than keyword', () => {
    const graph = scores.get('graph')!;
    const bm25 = scoreBm25(kit, 8);
    expect(graph.fallbacks).toBe(0);
    for (const other of [scores.get('semantic')!, bm25]) expect(graph.allEvidence).toBeGreaterThan(other.allEvidence);
    // Keyword search follows the names its best passages mention, so it may reach every hop too: graph at least ties it.
    expect(graph.allEvidence).toBeGreaterThanOrEqual(scores.get('keyword')!.allEvidence);
    expect(graph.allEvidence).toBeGreaterThanOrEqual(0.6);
    expect(scores.get('hybrid')!.allEvidence).toBeGreaterThanOrEqual(
      Math.max(scores.get('keyword')!.allEvidence, scores.get('semantic')!.allEvidence),
    );
    expect(scores.get('keyword')!.allEvidence).toBeGreaterThanOrEqual(bm25.allEvidence);
  });
});
