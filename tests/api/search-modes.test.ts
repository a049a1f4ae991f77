import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

interface SearchBody {
  data: {
    result_type: 'node' | 'chunk';
    score: number;
    node: { id: string; label: string } | null;
    chunk: { chunk_id: string; content: string; source_id: string } | null;
  }[];
  type: string;
  fallback: string | null;
  triples?: { source: { label: string }; relationship: string; target: { label: string } }[];
}

const clinic =
  'The physician examined every patient at the rural clinic and prescribed medicine for their illnesses each morning.';
const curie = [
  'Marie Curie was born in Warsaw in 1867.',
  'Marie Curie married Pierre Curie in Paris in 1895.',
  'Pierre Curie worked at the University of Paris, where he taught physics to many students.',
].join(' ');

/** The semantic, hybrid and graph modes of GET /search over a committed graph (builtin provider and embedder). */
describe('search modes over HTTP', () => {
  let server: TestServer;
  let cookie: string;
  const search = async (params: Record<string, string>) => {
    const response = await server.call('GET', `/search?${new URLSearchParams(params)}`, { cookie });
    expect(response.status, response.text).toBe(200);
    return response.body as SearchBody;
  };
  const upload = async (name: string, content: string, fields: Record<string, string>) => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content }], {
      auto_confirm: 'true',
      ...fields,
    });
    expect(accepted.status, accepted.text).toBe(202);
    return (accepted.body as SourceResponseBody).id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const clinicId = await upload('clinic.txt', clinic, { extract_entities: 'false' });
    const curieId = await upload('curie.txt', curie, { domain: 'biographical' });
    await waitForSource(server, cookie, clinicId, ['indexed']);
    expect((await waitForSource(server, cookie, curieId, ['committed', 'error'], 60_000)).status).toBe('committed');
  }, 90_000);
  afterAll(() => server.stop());

  it('finds a passage by meaning: "doctor" reaches the physician passage, which keyword search misses', async () => {
    const keyword = await search({ q: 'doctor', search_type: 'keyword' });
    expect(keyword.data.some((hit) => hit.chunk?.content.includes('physician'))).toBe(false);
    const semantic = await search({ q: 'doctor', search_type: 'semantic', limit: '3' });
    expect(semantic.fallback).toBeNull();
    expect(semantic.data[0].chunk?.content).toContain('physician');
    expect(semantic.data.every((hit) => hit.score >= 0 && hit.score <= 1)).toBe(true);
  });

  it('fuses keyword and semantic rankings in hybrid mode', async () => {
    const hybrid = await search({ q: 'Pierre Curie physics', search_type: 'hybrid', limit: '5' });
    expect(hybrid.type).toBe('hybrid');
    expect(hybrid.data.length).toBeGreaterThan(0);
    expect(
      hybrid.data.some((hit) => hit.node?.label === 'Pierre Curie' || hit.chunk?.content.includes('Pierre Curie')),
    ).toBe(true);
  });

  it('follows relationships in graph mode and returns the traversed triples', async () => {
    const graph = await search({ q: 'Marie Curie', search_type: 'graph', limit: '10' });
    expect(graph.type).toBe('graph');
    expect(graph.triples?.length).toBeGreaterThan(0);
    expect(graph.triples!.some((triple) => [triple.source.label, triple.target.label].includes('Marie Curie'))).toBe(
      true,
    );
    expect(graph.data.some((hit) => hit.result_type === 'chunk' && hit.chunk!.content.includes('Warsaw'))).toBe(true);
    expect(graph.data.some((hit) => hit.result_type === 'node')).toBe(true);
  });

  it('falls back to keyword results, and says so, when vector search is off', async () => {
    expect(
      (await server.call('PATCH', '/settings', { cookie, body: { search: { enable_vector_search: false } } })).status,
    ).toBe(200);
    try {
      const semantic = await search({ q: 'physician', search_type: 'semantic' });
      expect(semantic.fallback).toMatch(/keyword/);
      expect(semantic.data.some((hit) => hit.chunk?.content.includes('physician'))).toBe(true);
      const hybrid = await search({ q: 'physician', search_type: 'hybrid' });
      expect(hybrid.fallback).toMatch(/keyword results only/);
    } finally {
      await server.call('PATCH', '/settings', { cookie, body: { search: { enable_vector_search: true } } });
    }
  });
});
