import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';

const person = 'system_template_person';
const location = 'system_template_location';
const item = 'system_template_item';
const link = 'system_template_link';

interface Proposal {
  id: string;
  score: number;
  keep_id: string;
  nodes: { id: string; label: string; template_name: string; aliases: string[]; edge_count: number }[];
  evidence: { kind: string; detail: string; weight: number }[];
}

interface ProposalPage {
  data: Proposal[];
  pagination: { total: number; page: number; page_size: number; has_next: boolean };
}

const credentials = { username: 'operator', password: 'correct horse battery' };

describe('GET /graph/duplicates', () => {
  let server: TestServer;
  let cookie: string;
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });

  async function node(label: string, template = person, properties: Record<string, unknown> = {}): Promise<string> {
    const defined = template === item ? { definition: `What ${label} is`, ...properties } : properties;
    const result = await call('POST', '/nodes', { template_id: template, label, properties: defined });
    expect(result.status, result.text).toBe(201);
    return (result.body as { id: string }).id;
  }

  async function edge(source: string, target: string, label = 'knows'): Promise<void> {
    const result = await call('POST', '/edges', {
      template_id: link,
      source_node_id: source,
      target_node_id: target,
      label,
    });
    expect(result.status, result.text).toBe(201);
  }

  async function proposals(query = ''): Promise<ProposalPage> {
    const result = await call('GET', `/graph/duplicates${query}`);
    expect(result.status, result.text).toBe(200);
    return result.body as ProposalPage;
  }

  const pairOf = (page: ProposalPage, a: string, b: string) =>
    page.data.find((proposal) => [a, b].every((id) => proposal.nodes.some((node) => node.id === id)));

  let curie: string;
  let marieCurie: string;
  let einstein: string;
  let einstien: string;
  let paris: string;
  let parisPerson: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, credentials.username, credentials.password);
    curie = await node('Marie Curie');
    marieCurie = await node('Maria Skłodowska-Curie', person, { aliases: ['Marie Curie', 'Madame Curie'] });
    einstein = await node('Albert Einstein');
    einstien = await node('Albert Einstien', item);
    const physics = await node('Physics', item);
    const nobel = await node('Nobel Prize', item);
    for (const id of [curie, marieCurie]) {
      await edge(id, physics);
      await edge(id, nobel);
    }
    await edge(einstein, physics);
    paris = await node('Paris', location);
    parisPerson = await node('Paris', person);
    await node('Pierre Curie');
    await node('World War I', item);
    await node('World War II', item);
  });
  afterAll(() => server.stop());

  it('proposes pairs with their evidence, the better-connected node to keep, highest score first', async () => {
    const page = await proposals('?min_score=0.3&page_size=50');
    const scores = page.data.map((proposal) => proposal.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const alias = pairOf(page, curie, marieCurie);
    expect(alias?.evidence.map((finding) => finding.kind)).toEqual(
      expect.arrayContaining(['alias', 'shared_neighbours', 'type']),
    );
    expect(alias!.score).toBeGreaterThan(0.5);
    const aliasNode = alias!.nodes.find((candidate) => candidate.id === marieCurie)!;
    expect(aliasNode).toMatchObject({
      template_name: 'Person',
      aliases: ['Marie Curie', 'Madame Curie'],
      edge_count: 2,
    });

    const typo = pairOf(page, einstein, einstien);
    expect(typo?.evidence[0]).toMatchObject({ kind: 'near_name' });
    // Einstein has an edge, the misspelt one none: keep Einstein.
    expect(typo?.keep_id).toBe(einstein);
    expect(typo?.evidence.find((finding) => finding.kind === 'type')?.weight).toBe(0);

    // Same name, different specific types: proposed, but lower than the alias pair.
    const homonyms = pairOf(page, paris, parisPerson);
    expect(homonyms?.evidence.find((finding) => finding.kind === 'type')?.weight).toBeLessThan(0);
    expect(homonyms!.score).toBeLessThan(alias!.score);

    // Numbered names are different things, a shared surname alone is no duplicate.
    expect(page.data.some((proposal) => proposal.nodes.some((n) => n.label.startsWith('World War')))).toBe(false);
    expect(page.data.some((proposal) => proposal.nodes.some((n) => n.label === 'Pierre Curie'))).toBe(false);
  });

  it('pages the proposals and applies the score floor', async () => {
    const all = await proposals('?min_score=0');
    const first = await proposals('?min_score=0&page_size=1');
    expect(first.data).toHaveLength(1);
    expect(first.data[0].id).toBe(all.data[0].id);
    expect(first.pagination).toMatchObject({ total: all.pagination.total, page: 1, page_size: 1, has_next: true });
    const high = await proposals('?min_score=0.8');
    expect(high.data.every((proposal) => proposal.score >= 0.8)).toBe(true);
    expect(high.pagination.total).toBeLessThan(all.pagination.total);
  });

  it('gives a pair the same id whichever way it is found, and never proposes a rejected pair again', async () => {
    const before = await proposals('?min_score=0');
    const typo = pairOf(before, einstein, einstien)!;
    const again = pairOf(await proposals('?min_score=0'), einstien, einstein)!;
    expect(again.id).toBe(typo.id);

    const rejected = await call('POST', `/graph/duplicates/${typo.id}/reject`);
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toEqual({ id: typo.id, rejected: true });
    expect(pairOf(await proposals('?min_score=0'), einstein, einstien)).toBeUndefined();

    // A change to the graph rebuilds the proposals; the rejection still holds, and holds after a restart.
    await node('Albert  Einstein');
    expect(pairOf(await proposals('?min_score=0'), einstein, einstien)).toBeUndefined();
    await server.stop();
    server = await startTestServer({ dataDir: server.dataDir });
    const login = await server.call('POST', '/auth/login', { body: credentials });
    expect(login.status, login.text).toBe(200);
    cookie = login.cookie!;
    expect(pairOf(await proposals('?min_score=0'), einstein, einstien)).toBeUndefined();
    const repeated = await call('POST', `/graph/duplicates/${typo.id}/reject`);
    expect(repeated.status, repeated.text).toBe(200);
  });

  it('answers 404 for an unknown proposal and 422 for a bad query', async () => {
    const unknown = await call('POST', '/graph/duplicates/dup_nothing/reject');
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.body).toMatchObject({ error: expect.any(String), message: expect.stringContaining('dup_nothing') });
    expect((await call('GET', '/graph/duplicates?min_score=2')).status).toBe(422);
    expect((await call('GET', '/graph/duplicates?page_size=0')).status).toBe(422);
  });
});
