import { describe, expect, it } from 'vitest';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

interface Listed {
  data: { label: string; edge_count?: number | null }[];
}

/** The entity and relationship lists sorted on the server: by degree through the interface, every order through the API. */
describe('web interface: sorted entity and relationship lists', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const call = (method: string, path: string, body?: unknown) =>
    signedIn.server.call(method, path, { cookie: signedIn.cookie, body });
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await call(method, path, body);
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as T;
  };
  const labels = async (path: string) => (await api<Listed>('GET', path)).data.map((item) => item.label);

  it('sorts entities by degree in the list, both ways, and keeps the order in the address', async () => {
    const { page } = signedIn;
    const beacon = await api<{ id: string }>('POST', '/templates', { name: 'Beacon', template_type: 'node' });
    const lit = await api<{ id: string }>('POST', '/templates', { name: 'Lit by', template_type: 'edge' });
    // Degrees 0, 3, 1, 2 in creation order: the sorted list cannot come out right by accident.
    const names = ['Quiet Buoy', 'Great Light', 'Small Lamp', 'Harbour Light'];
    const nodes: Record<string, string> = {};
    for (const label of names)
      nodes[label] = (
        await api<{ id: string }>('POST', '/nodes', { template_id: beacon.id, label, properties: {} })
      ).id;
    const link = (from: string, to: string, label: string) =>
      api('POST', '/edges', { template_id: lit.id, source_node_id: nodes[from], target_node_id: nodes[to], label });
    await link('Great Light', 'Small Lamp', 'guides');
    await link('Great Light', 'Harbour Light', 'answers');
    await link('Harbour Light', 'Great Light', 'signals');

    await page.goto(`/entities?type=${beacon.id}`);
    await page.getByRole('link', { name: 'Quiet Buoy' }).waitFor();
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Degree' }).click();
    const shown = () =>
      page
        .getByRole('table', { name: 'Entities' })
        .getByRole('link')
        .evaluateAll((links) => links.map((link) => link.textContent));
    await until(
      async () => {
        const order = await shown();
        return order.join() === 'Great Light,Harbour Light,Small Lamp,Quiet Buoy' ? order : undefined;
      },
      { what: 'the entities by degree, most first' },
    );
    expect(new URL(page.url()).searchParams.get('sort')).toBe('degree');
    await captureScreen(page, 'entities-sorted');

    await page.getByRole('button', { name: 'Sort ascending' }).click();
    await until(
      async () => {
        const order = await shown();
        return order.join() === 'Quiet Buoy,Small Lamp,Harbour Light,Great Light' ? order : undefined;
      },
      { what: 'the entities by degree, fewest first' },
    );
    // A reload opens the list in the same order.
    await page.reload();
    await until(
      async () => ((await shown()).join() === 'Quiet Buoy,Small Lamp,Harbour Light,Great Light' ? true : undefined),
      {
        what: 'the order after a reload',
      },
    );

    const scope = `template_id=${beacon.id}`;
    expect(await labels(`/nodes?${scope}&sort_by=label`)).toEqual([...names].sort());
    expect(await labels(`/nodes?${scope}&sort_by=label&sort_order=desc`)).toEqual([...names].sort().reverse());
    expect(await labels(`/nodes?${scope}&sort_by=degree&page_size=2`)).toEqual(['Great Light', 'Harbour Light']);
    expect(await labels(`/nodes?${scope}&sort_by=degree&page_size=2&page=2`)).toEqual(['Small Lamp', 'Quiet Buoy']);
    expect(await labels(`/nodes?${scope}&sort_order=desc`)).toEqual([...names].reverse());
    // The last change first: renaming the oldest brings it to the top.
    await api('PATCH', `/nodes/${nodes['Quiet Buoy']}`, { label: 'Quiet Buoy (moved)' });
    expect((await labels(`/nodes?${scope}&sort_by=updated_at`))[0]).toBe('Quiet Buoy (moved)');
    expect(await labels(`/edges?sort_by=label`)).toEqual(['answers', 'guides', 'signals']);

    const refused = await call('GET', '/nodes?sort_by=colour');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('sort_by');
    expect((await call('GET', '/edges?sort_by=degree')).status).toBe(422);
  });

  it('sorts by confidence with the unrated last, and by the number of sources', async () => {
    const rated = await api<{ id: string }>('POST', '/templates', { name: 'Rated', template_type: 'node' });
    for (const [label, confidence] of [
      ['Unsure', 0.4],
      ['Unrated', undefined],
      ['Certain', 0.95],
    ] as const)
      await api('POST', '/nodes', {
        template_id: rated.id,
        label,
        properties: confidence === undefined ? {} : { confidence },
      });
    const scope = `template_id=${rated.id}`;
    expect(await labels(`/nodes?${scope}&sort_by=confidence`)).toEqual(['Certain', 'Unsure', 'Unrated']);
    expect(await labels(`/nodes?${scope}&sort_by=confidence&sort_order=asc`)).toEqual(['Unsure', 'Certain', 'Unrated']);
    // None of them came from a source: equal counts keep creation order.
    expect(await labels(`/nodes?${scope}&sort_by=source_count`)).toEqual(['Unsure', 'Unrated', 'Certain']);
  });
});
