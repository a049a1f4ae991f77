import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import {
  captureScreen,
  captureWide,
  eventually,
  openBrowser,
  patience,
  testTimeout,
  type Session,
} from './support/browser.ts';
import { expectPhoneFit } from './support/shell.ts';

const person = 'system_template_person';

interface Proposal {
  id: string;
  keep_id: string;
  nodes: { id: string; label: string }[];
}

/**
 * The duplicates review queue in a real browser against the real proposals API: reached from the graph,
 * worked with the keyboard alone (merge, keep the other one, undo, reject, skip and back), a rejected pair
 * never coming back after a reload, the recent merges with their Undo, and the server's refusal of an undo
 * shown to the person.
 */
describe('web interface: the duplicates review queue', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;
  const api = async <T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const result = await server.call(method, route, { cookie, body });
    return { status: result.status, body: result.body as T };
  };
  /** Node vectors are made by workflows in the background, and a vector can change a pair's score and rank. */
  const backgroundSettled = () =>
    until(
      async () => {
        for (const status of ['queued', 'running']) {
          const runs = await api<{ pagination: { total: number } }>('GET', `/workflows/executions?status=${status}`);
          if (runs.body.pagination.total > 0) return false;
        }
        return true;
      },
      { timeoutMs: patience, intervalMs: 100, what: 'the workflow executions to finish' },
    );
  const proposals = async () => (await api<{ data: Proposal[] }>('GET', '/graph/duplicates')).body.data;
  const nodeExists = async (id: string) => (await api('GET', `/nodes/${id}`)).status === 200;
  const position = () => page.getByTestId('queue-position').innerText();
  const shownProposal = () => page.getByTestId('duplicate-proposal').getAttribute('data-proposal-id');
  const notice = () => page.getByTestId('merge-notice');
  const labelOf = (proposal: Proposal, id: string) => proposal.nodes.find((node) => node.id === id)!.label;
  const otherOf = (proposal: Proposal) => proposal.nodes.find((node) => node.id !== proposal.keep_id)!.id;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    session = await openBrowser(server.url);
    page = session.page;
    const [name, ...value] = cookie.split('=');
    await session.context.addCookies([{ name, value: value.join('='), url: server.url }]);
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('explains what will appear when there is nothing to review', async () => {
    await page.goto('/graph/duplicates');
    await page.getByRole('heading', { name: 'No duplicates to review' }).waitFor();
    await expect(page.getByTestId('queue-state').innerText()).resolves.toContain('one at a time');
    await captureScreen(page, 'duplicates-empty', expectPhoneFit);
  });

  it('merges, keeps the other one, undoes, rejects for good and skips, all from the keyboard', async () => {
    // Each node brings a vector of its own, orthogonal to the others: the scores come from names, aliases,
    // neighbours and types alone, and no background embedding changes a kept node after its merge.
    let made = 0;
    const node = async (label: string, properties: Record<string, unknown> = {}) => {
      const embedding = Array.from({ length: 16 }, (_, index) => (index === made ? 1 : 0));
      made += 1;
      const created = await api<{ id: string }>('POST', '/nodes', {
        template_id: person,
        label,
        properties,
        embedding,
      });
      expect(created.status).toBe(201);
      return created.body.id;
    };
    const curie = await node('Marie Curie');
    const sklodowska = await node('Maria Skłodowska-Curie', { aliases: ['Marie Curie', 'Madame Curie'] });
    const einstein = await node('Albert Einstein');
    await node('Albert Einstien');
    await node('Charles Babbage');
    await node('charles babbage');
    const physics = await node('Physics');
    for (const id of [curie, sklodowska, einstein]) {
      const edge = await api('POST', '/edges', {
        template_id: 'system_template_link',
        source_node_id: id,
        target_node_id: physics,
        label: 'studied',
      });
      expect(edge.status).toBe(201);
    }
    await backgroundSettled();
    const proposed = await proposals();
    expect(proposed.length).toBe(3);
    const [first] = proposed;

    // From the graph's toolbar; the navigation lists it under the graph.
    await page.goto('/graph');
    await page.getByRole('link', { name: 'Duplicates' }).first().waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Duplicates' });
    expect(await nav.getAttribute('href')).toBe('/graph/duplicates');
    await page.getByRole('main').getByRole('link', { name: 'Duplicates' }).click();
    await eventually(position).toBe('1 of 3');
    expect(await nav.getAttribute('aria-current')).toBe('page');
    await eventually(shownProposal).toBe(first.id);
    const entity = page.getByTestId('duplicate-entity').first();
    expect(await entity.getByRole('link', { name: /^Show in the graph/ }).getAttribute('href')).toBe(
      `/graph?node=${first.nodes[0].id}`,
    );
    await captureScreen(page, 'duplicates-review', expectPhoneFit);
    await captureWide(page, 'duplicates-review');

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await expect(help.innerText()).resolves.toContain('Not duplicates');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // Skip and back, with s and the arrows: every pair is shown once, and back returns to the first.
    const seen = [await shownProposal()];
    // Letters reach the queue even from its tab list, whose arrows stay its own.
    const reviewTab = page.getByRole('tab', { name: 'Review' });
    await reviewTab.focus();
    await page.keyboard.press('s');
    await eventually(position).toBe('2 of 3');
    seen.push(await shownProposal());
    await reviewTab.blur();
    await page.keyboard.press('ArrowRight');
    await eventually(position).toBe('3 of 3');
    seen.push(await shownProposal());
    expect(new Set(seen)).toEqual(new Set(proposed.map((proposal) => proposal.id)));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await eventually(position).toBe('1 of 3');
    expect(await shownProposal()).toBe(first.id);

    // k keeps the other entity, m merges into it; u undoes, restoring the merged one.
    const suggested = first.keep_id;
    const other = otherOf(first);
    await page.keyboard.press('k');
    await page.getByRole('button', { name: `Merge into “${labelOf(first, other)}”` }).waitFor();
    await page.keyboard.press('m');
    await eventually(() => notice().innerText()).toContain(
      `Merged “${labelOf(first, suggested)}” into “${labelOf(first, other)}”.`,
    );
    expect(await nodeExists(suggested)).toBe(false);
    expect(await nodeExists(other)).toBe(true);
    await eventually(position).toBe('1 of 2');
    await captureScreen(page, 'duplicates-merged', expectPhoneFit);
    await page.keyboard.press('u');
    await notice().waitFor({ state: 'detached' });
    expect(await nodeExists(suggested)).toBe(true);
    await eventually(position).toBe('1 of 3');
    await eventually(shownProposal).toBe(first.id);

    // n: not duplicates; the pair is gone, and stays gone after a reload.
    await page.keyboard.press('n');
    await eventually(position).toBe('1 of 2');
    expect(await shownProposal()).not.toBe(first.id);
    await page.reload();
    await eventually(position).toBe('1 of 2');
    const left = [await shownProposal()];
    await page.keyboard.press('s');
    await eventually(position).toBe('2 of 2');
    left.push(await shownProposal());
    const others = proposed.slice(1).map((proposal) => proposal.id);
    expect(new Set(left)).toEqual(new Set(others));
    expect(new Set((await proposals()).map((proposal) => proposal.id))).toEqual(new Set(others));

    // Past the last pair the queue says so and starts again on request.
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: 'You have seen every proposal' }).waitFor();
    await page.getByRole('button', { name: 'Start again from the first' }).click();
    await eventually(position).toBe('1 of 2');
  });

  it('lists recent merges with Undo, and shows why an undo is refused', async () => {
    await backgroundSettled();
    await page.goto('/graph/duplicates');
    await eventually(position).toBe('1 of 2');
    const [pair, next] = await proposals();
    await eventually(shownProposal).toBe(pair.id);
    await page.keyboard.press('m');
    await notice().waitFor();
    const merges = await api<{ data: { merge_id: string; undoable: boolean }[] }>('GET', '/nodes/merges');
    const made = merges.body.data[0];
    expect(made.undoable).toBe(true);

    // Undone elsewhere: the queue's Undo gets the server's refusal, and says it.
    expect((await api('POST', `/nodes/merges/${made.merge_id}/undo`)).status).toBe(200);
    await page.keyboard.press('u');
    const refusal = page.getByText('Could not undo the merge');
    await refusal.waitFor();
    await expect(page.getByText(/was undone at/).count()).resolves.toBe(1);
    // The notice leaves on its own before the captures.
    await refusal.waitFor({ state: 'detached' });
    expect(await nodeExists(otherOf(pair))).toBe(true);

    // Whichever pair the queue shows now (the next, or the restored one if the change reached it) is merged.
    const shownId = await shownProposal();
    const current = [pair, next].find((proposal) => proposal.id === shownId)!;
    await page.getByRole('button', { name: 'Close the merge notice' }).click();
    await notice().waitFor({ state: 'detached' });
    await page.keyboard.press('m');
    await eventually(() => notice().innerText()).toContain(`into “${labelOf(current, current.keep_id)}”`);
    expect(await nodeExists(otherOf(current))).toBe(false);
    await page.getByRole('tab', { name: 'Recent merges' }).click();
    const table = page.getByRole('table', { name: 'Recent merges' });
    await table.waitFor();
    await eventually(() => table.getByRole('button', { name: /^Undo/ }).count()).toBe(1);
    await expect(table.innerText()).resolves.toContain('Undone already');
    await captureScreen(page, 'duplicates-recent-merges', expectPhoneFit);
    await captureWide(page, 'duplicates-recent-merges');

    const undo = table.getByRole('button', { name: /^Undo/ });
    await undo.focus();
    await page.keyboard.press('Enter');
    await eventually(() => table.getByRole('button', { name: /^Undo/ }).count()).toBe(0);
    expect(await nodeExists(otherOf(current))).toBe(true);
  });
});
