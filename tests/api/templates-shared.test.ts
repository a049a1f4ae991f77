import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const passages = [
  {
    name: 'curie.txt',
    content:
      'Marie Curie was a physicist who was born in Warsaw. Marie Curie married Pierre Curie in Paris in 1895. Marie Curie worked at the University of Paris.',
  },
  {
    name: 'einstein.txt',
    content:
      'Albert Einstein was a physicist who was born in Ulm. Albert Einstein married Mileva Maric in Bern in 1903. Albert Einstein worked at the University of Zurich.',
  },
  {
    name: 'bohr.txt',
    content:
      'Niels Bohr was a physicist who was born in Copenhagen. Niels Bohr married Margrethe Norlund in 1912. Niels Bohr worked at the University of Copenhagen.',
  },
];

interface TemplateRow {
  id: string;
  name: string;
  template_type: string;
  is_system: number;
  extracted: number;
}

describe('one template per type, shared by the sources that use it', () => {
  let server: TestServer;
  let cookie: string;
  const ids: string[] = [];
  const db = async () => (await server.platform.databases.current()).db;
  const templates = async () =>
    (await (
      await db()
    )('graph_templates').select('id', 'name', 'template_type', 'is_system', 'extracted')) as TemplateRow[];

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    const accepted = await uploadSources(server, cookie, '/sources/batch', passages, {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    expect(accepted.status, accepted.text).toBe(202);
    ids.push(...(accepted.body as { files: SourceResponseBody[] }).files.map((file) => file.id));
    for (const id of ids)
      expect((await waitForSource(server, cookie, id, ['committed', 'error'], 60_000)).status).toBe('committed');
  }, 90_000);
  afterAll(() => server.stop());

  it('gives each entity and relation type one template whichever sources extract it, people typed by system_template_person', async () => {
    const all = await templates();
    const names = all.map((template) => `${template.template_type}:${template.name.toLowerCase()}`);
    expect(new Set(names).size).toBe(names.length);
    const extracted = all.filter((template) => template.extracted);
    expect(extracted.length).toBeGreaterThan(0);
    expect(extracted.length).toBeLessThan(20);

    const people = (await (
      await db()
    )('graph_nodes')
      .where({ template_id: 'system_template_person', extracted: true })
      .pluck('label')) as string[];
    expect(people).toEqual(expect.arrayContaining(['Marie Curie', 'Albert Einstein', 'Niels Bohr']));
    const users = (await (
      await db()
    )('template_sources')
      .where({ template_id: 'system_template_person' })
      .pluck('source_id')) as string[];
    expect(new Set(users)).toEqual(new Set(ids));
  });

  it('finds extracted people with GET /search?template_id=system_template_person', async () => {
    const found = await server.call(
      'GET',
      '/search?q=physicist%20Einstein&template_id=system_template_person&limit=20',
      { cookie },
    );
    expect(found.status, found.text).toBe(200);
    const hits = (
      found.body as { data: { result_type: string; node: { label: string; template_id: string } | null }[] }
    ).data;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.result_type === 'node' && hit.node?.template_id === 'system_template_person')).toBe(
      true,
    );
    expect(hits.map((hit) => hit.node!.label)).toContain('Albert Einstein');
  });

  it('deleting a source removes only the templates nothing else uses; the last source takes the extracted ones with it', async () => {
    const before = await templates();
    expect((await server.call('DELETE', `/sources/${ids[0]}`, { cookie })).status).toBe(204);
    const after = await templates();
    // Every type the other two sources still use keeps its template.
    const used = (await (await db())('graph_nodes').distinct('template_id').pluck('template_id')) as string[];
    for (const id of used) expect(after.map((template) => template.id)).toContain(id);
    expect(after.length).toBeLessThanOrEqual(before.length);
    expect(await (await db())('template_sources').where({ source_id: ids[0] }).first()).toBeUndefined();

    for (const id of ids.slice(1)) expect((await server.call('DELETE', `/sources/${id}`, { cookie })).status).toBe(204);
    const left = await templates();
    expect(left.filter((template) => template.extracted)).toEqual([]);
    expect(left.filter((template) => template.is_system).map((template) => template.id)).toContain(
      'system_template_person',
    );
  });
});
