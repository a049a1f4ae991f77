import { describe, expect, it } from 'vitest';
import { testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** Addresses bookmarked in the system users come from land on the screen that does the job here. */
describe('web interface: routes users bring', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/', password);

  it('redirects each old address, keeping its id', async () => {
    const { page, server, cookie } = signedIn;
    // Signed in once the first screen shows.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'detached' });
    const created = await server.call('POST', '/nodes', {
      cookie,
      body: { template_id: 'system_template_item', label: 'Kestrel Point', properties: { definition: 'A headland' } },
    });
    expect(created.status, created.text).toBe(201);
    const nodeId = (created.body as { id: string }).id;
    const cases: [from: string, path: string, heading: string, tab?: string][] = [
      ['/nodes', '/entities', 'Entities'],
      [`/nodes/${nodeId}`, `/entities/${nodeId}`, 'Kestrel Point'],
      ['/edges', '/relationships', 'Relationships'],
      ['/queues', '/queue', 'Queue'],
      ['/lexicon', '/operations?tab=registry', 'Operations', 'Registry'],
      ['/automations', '/automation', 'Automation'],
      ['/automations/triggers', '/automation/triggers', 'Automation', 'Triggers'],
    ];
    for (const [from, path, heading, tab] of cases) {
      await page.goto(from);
      await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (tab) await page.getByRole('tab', { name: tab, selected: true }).waitFor();
    }
  });
});
