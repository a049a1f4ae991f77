import { describe, expect, it } from 'vitest';
import { until } from '../support/wait.ts';
import { captureScreen, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

interface Node {
  id: string;
  label: string;
  tags: { id: string; name: string }[];
}

/** Entity tags through the interface: a bulk Tag action, the tag column and filter, tags on the entity page. */
describe('web interface: entity tags', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await signedIn.server.call(method, path, { cookie: signedIn.cookie, body });
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body as T;
  };
  const node = (id: string) => api<Node>('GET', `/nodes/${id}`);

  it('tags selected entities at once, lists and filters them by tag, and edits one entity’s tags', async () => {
    const { page } = signedIn;
    const template = await api<{ id: string }>('POST', '/templates', { name: 'Harbour', template_type: 'node' });
    const ids: string[] = [];
    for (const label of ['Anchor Bay', 'Bell Quay', 'Cod Wharf', 'Dune Slip'])
      ids.push((await api<Node>('POST', '/nodes', { template_id: template.id, label })).id);

    await page.goto(`/entities?type=${template.id}`);
    await page.getByRole('link', { name: 'Dune Slip' }).waitFor();
    for (const label of ['Anchor Bay', 'Bell Quay', 'Cod Wharf'])
      await page.getByRole('checkbox', { name: `Select ${label}` }).check();
    await page.getByRole('button', { name: 'Tag', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Tag 3 entities' });
    await dialog.getByLabel('Tag', { exact: true }).fill('Surveyed');
    await dialog.getByRole('button', { name: 'Tag', exact: true }).click();
    const job = page.getByTestId('bulk-job');
    await job.getByText('3 items done, 0 items failed').waitFor();
    await job.getByRole('button', { name: 'Close' }).click();
    for (const id of ids.slice(0, 3)) expect((await node(id)).tags.map((tag) => tag.name)).toEqual(['Surveyed']);
    expect((await node(ids[3])).tags).toEqual([]);

    // The list shows the tags and narrows to one tag.
    await page.getByRole('combobox', { name: 'Entity tag' }).click();
    await page.getByRole('option', { name: 'Surveyed' }).click();
    await until(
      async () =>
        (await page.getByRole('checkbox', { name: /^Select (Anchor|Bell|Cod|Dune)/ }).count()) === 3 ? true : undefined,
      { what: 'the list narrowed to the tag' },
    );
    expect(await page.getByRole('link', { name: 'Dune Slip' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('entity_tag')).toMatch(/^ntag_/);
    await page.getByText('Surveyed').first().waitFor();
    // At 390 px the filters fill the first screen: the capture shows the rows with their tags.
    await captureScreen(page, 'entity-tags-list', (shown) =>
      shown.getByRole('link', { name: 'Cod Wharf' }).scrollIntoViewIfNeeded(),
    );

    // One entity's page: a new tag added, the first taken off.
    await page.getByRole('link', { name: 'Bell Quay' }).click();
    const tags = page.getByRole('group', { name: 'Entity tags' });
    await tags.getByText('Surveyed').waitFor();
    await tags.getByRole('combobox', { name: 'Add a tag' }).fill('Dredged');
    await tags.getByRole('button', { name: 'Add' }).click();
    await tags.getByText('Dredged').waitFor();
    await tags.getByRole('button', { name: 'Remove the tag Surveyed' }).click();
    await until(async () => ((await tags.getByText('Surveyed').count()) === 0 ? true : undefined), {
      what: 'the tag taken off',
    });
    expect((await node(ids[1])).tags.map((tag) => tag.name)).toEqual(['Dredged']);
    await captureScreen(page, 'entity-tags-detail');
  });
});
