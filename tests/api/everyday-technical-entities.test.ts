import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/technical/${name}`, import.meta.url), 'utf8');

interface Named {
  id: string;
  name?: string;
  label?: string;
  template_id?: string;
}
interface Page<T> {
  data: T[];
}

// A man page and a README dropped on a fresh install, extracted offline by the builtin model with the detected domain.
describe('technical documents through the builtin extractor', () => {
  let server: TestServer;
  let cookie: string;
  let templateNames: Map<string, string>;

  /** The source's graph nodes as label → node-type name. */
  const graphOf = async (name: string): Promise<Map<string, string>> => {
    const accepted = await uploadSources(server, cookie, '/sources', [{ name, content: fixture(name) }], {
      auto_confirm: 'true',
    });
    expect(accepted.status, accepted.text).toBe(202);
    const id = (accepted.body as SourceResponseBody).id;
    const source = await waitForSource(server, cookie, id, ['committed', 'error'], 180_000);
    expect(source.status, source.error_message ?? '').toBe('committed');
    expect(source.extraction_domain).toBe('technical');
    const nodes = await server.call('GET', `/nodes?source_ids=${id}&page_size=500`, { cookie });
    expect(nodes.status, nodes.text).toBe(200);
    const templates = await server.call('GET', '/templates?template_type=node&page_size=500', { cookie });
    templateNames = new Map((templates.body as Page<Named>).data.map((template) => [template.id, template.name ?? '']));
    return new Map(
      (nodes.body as Page<Named>).data.map((node) => [
        node.label ?? '',
        templateNames.get(node.template_id ?? '') ?? '',
      ]),
    );
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
  });
  afterAll(() => server.stop());

  it("types the ssh page's names and makes none of its escape keys or option letters a node", async () => {
    const graph = await graphOf('ssh.1.txt');
    expect(graph.get('ssh')).toBe('Command');
    expect(graph.get('OpenSSH')).toBe('Software Project');
    expect(graph.get('TCP')).toBe('Protocol');
    expect(graph.get('Markus Friedl')).toBe('Person');
    const labels = [...graph.keys()];
    expect(labels.filter((label) => label.length <= 1)).toEqual([]);
    expect(labels.filter((label) => label.length > 60)).toEqual([]);
    const items = [...graph.values()].filter((type) => type === 'Item');
    expect(items.length / graph.size).toBeLessThanOrEqual(0.2);
  }, 240_000);

  it('gives the Redis README its subject, Redis, and none of "Certain Redis", "Use" or "Data"', async () => {
    const graph = await graphOf('redis-README.md');
    expect(graph.get('Redis')).toBe('Software Project');
    for (const noise of ['Certain Redis', 'Use', 'Data', 'USE', 'SUFFIX', 'Building Redis'])
      expect(graph.has(noise)).toBe(false);
  }, 240_000);
});
