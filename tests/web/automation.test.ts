import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { captureScreen, eventually, openBrowser, testTimeout, type Session, signInAt } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

interface StepRun {
  step_id: string;
  status: string;
  output: unknown;
}
interface Execution {
  id: string;
  workflow_id: string;
  status: string;
  trigger_id: string | null;
  steps: StepRun[];
}

/**
 * Automation in a real browser: a workflow of two steps (the second runs after the first) built in the
 * editor, a trigger on node creation, a node created, and the run seen succeeding with each step's output;
 * then firing the trigger by hand, the tools with their statistics, and export then import of the workflow.
 */
describe('web interface: automation', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;
  let workflowId = '';

  const api = async <T>(method: string, path: string, body?: unknown) => {
    const result = await server.call(method, path, { cookie, body });
    expect(result.status, `${method} ${path}: ${result.text}`).toBeLessThan(300);
    return result.body as T;
  };
  async function addStep(name: string, tool: RegExp, configuration: string, after?: RegExp) {
    await page.getByRole('button', { name: 'Add a step' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a step' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('combobox', { name: 'Tool' }).click();
    await page.getByRole('option', { name: tool }).click();
    await dialog.getByRole('textbox', { name: 'Configuration' }).fill(configuration);
    if (after) {
      await dialog.getByRole('combobox', { name: 'Runs after' }).click();
      await page.getByRole('option', { name: after }).click();
      await dialog.getByRole('combobox', { name: 'Runs after' }).press('Escape');
    }
    await dialog.getByRole('button', { name: 'Add the step' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  async function choose(combobox: Locator, option: string | RegExp) {
    await combobox.click();
    await page.getByRole('option', { name: option }).click();
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, 'operator', password);
    session = await openBrowser(server.url);
    page = session.page;
    await signInAt(page, '/automation', password);
    await page.getByRole('heading', { name: 'Automation' }).waitFor();
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('creates a workflow whose second step runs after the first, and draws the steps as a graph', async () => {
    await page.getByRole('button', { name: 'New workflow' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Note new nodes');
    await dialog.getByRole('button', { name: 'Create and add steps' }).click();
    await page.getByRole('heading', { name: 'Note new nodes' }).waitFor();
    workflowId = new URL(page.url()).pathname.split('/').at(-1)!;

    await page.getByRole('textbox', { name: 'Inputs (JSON schema)' }).fill(
      JSON.stringify({
        type: 'object',
        properties: { entity_id: { type: 'string' }, entity_type: { type: 'string' } },
      }),
    );
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await page.getByText('The workflow “Note new nodes” is saved.').waitFor();
    // The table view, the keyboard way to edit the steps (remembered for the workflows opened later).
    await page.getByText('Table', { exact: true }).click();

    await addStep(
      'Collect',
      /^Merge Data$/,
      JSON.stringify({ items: [{ node: '{{inputs.entity_id}}' }, { kind: '{{inputs.entity_type}}' }] }),
    );
    await addStep(
      'Pick node id',
      /^Extract Data$/,
      JSON.stringify({ data: '{{steps.collect.output.result}}', path: 'node' }),
      /Collect \(collect\)/,
    );
    await page.locator('tr[data-step-id="pick_node_id"]').getByText('Collect', { exact: true }).waitFor();
    const dag = page.getByTestId('dag-view');
    await eventually(() => dag.locator('.react-flow__node').count()).toBe(2);
    await eventually(() => dag.locator('.react-flow__edge').count()).toBe(1);
    // Tools by the names people know them by, in the list and the graph.
    await page.locator('tr[data-step-id="pick_node_id"]').getByText('Extract Data', { exact: true }).waitFor();
    await dag.getByText('Merge Data').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/data\.(merge|extract)/);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The steps of “Note new nodes” are saved.').waitFor();

    const saved = await api<{ steps: { id: string; tool_id: string; depends_on: string[] }[] }>(
      'GET',
      `/workflows/${workflowId}`,
    );
    expect(saved.steps.map(({ id, tool_id, depends_on }) => ({ id, tool_id, depends_on }))).toEqual([
      { id: 'collect', tool_id: 'data.merge', depends_on: [] },
      { id: 'pick_node_id', tool_id: 'data.extract', depends_on: ['collect'] },
    ]);
    await captureScreen(page, 'workflow-editor', expectNoSidewaysScroll);
  });

  it('refuses a step that reads a step it does not run after, saying why', async () => {
    await page.getByRole('button', { name: 'Add a step' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a step' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Racing');
    await choose(dialog.getByRole('combobox', { name: 'Tool' }), /^Extract Data$/);
    await dialog
      .getByRole('textbox', { name: 'Configuration' })
      .fill(JSON.stringify({ data: '{{steps.pick_node_id.output}}' }));
    await dialog.getByRole('button', { name: 'Add the step' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/pick_node_id/)
      .first()
      .waitFor();
    await captureScreen(page, 'workflow-step-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api<{ steps: unknown[] }>('GET', `/workflows/${workflowId}`)).steps).toHaveLength(2);
  });

  it('adds a trigger on node creation, then a new node runs the workflow to success with each step’s output', async () => {
    await nav(page, 'Automation').click();
    await page.getByRole('tab', { name: 'Triggers' }).click();
    await page.getByRole('button', { name: 'New trigger' }).click();
    const dialog = page.getByRole('dialog', { name: 'New trigger' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('When a node appears');
    await choose(dialog.getByRole('combobox', { name: 'Workflow it starts' }), 'Note new nodes');
    await dialog.getByRole('textbox', { name: 'Filters' }).fill('{"entity_type": "node"}');
    await dialog.getByRole('button', { name: 'Create the trigger' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator('tr', { hasText: 'When a node appears' });
    await row.getByText('Not run yet').waitFor();
    await row.getByText('when a node is created').waitFor();
    const [trigger] = (
      await api<{ data: { id: string; name: string; event_source: string; workflow_id: string; enabled: boolean }[] }>(
        'GET',
        '/triggers',
      )
    ).data.filter((entry) => entry.name === 'When a node appears');
    expect(trigger).toMatchObject({ event_source: 'node.create', workflow_id: workflowId, enabled: true });
    expect((await api<{ filters: unknown }>('GET', `/triggers/${trigger.id}`)).filters).toEqual({
      entity_type: 'node',
    });

    const node = await api<{ id: string }>('POST', '/nodes', {
      template_id: 'system_template_person',
      label: 'Grace Hopper',
    });
    await page.getByRole('tab', { name: 'Executions' }).click();
    const run = page.locator('tr[data-execution-id]', { hasText: 'Note new nodes' });
    await run.getByTestId('execution-status').getByText('completed').waitFor();
    await captureScreen(page, 'automation-executions', expectNoSidewaysScroll);

    await run.getByRole('link', { name: 'Note new nodes' }).click();
    await page.getByRole('heading', { name: 'Run of Note new nodes' }).waitFor();
    await page.getByText('started by a trigger').waitFor();
    const pick = page.locator('[data-step-id="pick_node_id"]');
    await pick.getByRole('button').first().click();
    // Input and output as labelled fields; the JSON only under "Raw".
    const output = pick.getByRole('group', { name: 'Output of Pick node id' });
    await output.getByRole('definition').getByText(node.id).waitFor();
    expect(await output.getByRole('term').allInnerTexts()).toEqual(['value']);
    await pick.getByText('Extract Data').waitFor();
    const collected = page.locator('[data-step-id="collect"]');
    await collected.getByRole('button').first().click();
    const merged = collected.getByRole('group', { name: 'Output of Collect' });
    await merged.getByText('2 fields').click();
    await merged.getByRole('definition').getByText(node.id).waitFor();
    const visible = await page.locator('main').innerText();
    expect(visible).not.toMatch(/data\.(merge|extract)|\{"|": /);
    await output.getByText('Raw').click();
    await eventually(() => output.getByLabel('Output of Pick node id as JSON').innerText()).toContain(
      `"value": "${node.id}"`,
    );
    await output.getByText('Raw').click();
    await captureScreen(page, 'execution-detail', expectNoSidewaysScroll);
    const executionId = new URL(page.url()).pathname.split('/').at(-1)!;
    const execution = await api<Execution>('GET', `/workflows/executions/${executionId}`);
    expect(execution).toMatchObject({ workflow_id: workflowId, status: 'completed', trigger_id: trigger.id });
    expect(execution.steps.map(({ step_id, status, output }) => ({ step_id, status, output }))).toEqual([
      { step_id: 'collect', status: 'completed', output: { result: { node: node.id, kind: 'node' } } },
      { step_id: 'pick_node_id', status: 'completed', output: { value: node.id } },
    ]);
  });

  it('fires a trigger by hand and counts its runs', async () => {
    await nav(page, 'Automation').click();
    await page.getByRole('tab', { name: 'Triggers' }).click();
    const row = page.locator('tr', { hasText: 'When a node appears' });
    await row.getByText('1 run').waitFor();
    await row.getByRole('button', { name: 'Actions for When a node appears' }).click();
    await page.getByRole('menuitem', { name: 'Fire now…' }).click();
    const dialog = page.getByRole('dialog', { name: /Fire/ });
    await dialog.getByRole('textbox', { name: 'Event' }).fill('{"entity_type": "edge", "entity_id": "e-1"}');
    await dialog.getByRole('button', { name: 'Fire', exact: true }).click();
    await dialog.getByText('Nothing started').waitFor();
    await dialog.getByRole('textbox', { name: 'Event' }).fill('{"entity_type": "node", "entity_id": "by-hand"}');
    await dialog.getByRole('button', { name: 'Fire', exact: true }).click();
    await dialog.getByText('The workflow started').waitFor();
    await captureScreen(page, 'trigger-fire');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await eventually(
      async () =>
        (await api<{ data: Execution[] }>('GET', `/workflows/executions?workflow_id=${workflowId}`)).data.filter(
          (entry) => entry.status === 'completed',
        ).length,
    ).toBe(2);
    await page.reload();
    await row.getByText('2 runs').waitFor();
    await captureScreen(page, 'automation-triggers', expectNoSidewaysScroll);
  });

  it('shows the tools with their schemas and call statistics', async () => {
    await nav(page, 'Automation').click();
    await page.getByRole('tab', { name: 'Tools' }).click();
    await page.getByRole('button', { name: /Extract Data/ }).click();
    const input = page.getByRole('group', { name: 'Input of Extract Data' });
    await input.getByText('· any value · required').waitFor();
    await input.getByText('· text', { exact: true }).waitFor();
    // The two runs so far called data.extract once each.
    await page.getByText('2 calls', { exact: true }).waitFor();
    await input.scrollIntoViewIfNeeded();
    await captureScreen(page, 'automation-tools', expectNoSidewaysScroll);
  });

  it('exports a workflow as JSON and imports it back as a new workflow', async () => {
    await nav(page, 'Automation').click();
    await page.locator(`tr[data-workflow-id="${workflowId}"]`).waitFor();
    await captureScreen(page, 'automation-workflows', expectNoSidewaysScroll);
    await page
      .locator(`tr[data-workflow-id="${workflowId}"]`)
      .getByRole('button', { name: 'Actions for Note new nodes' })
      .click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export JSON' }).click(),
    ]);
    const file = await download.path();
    const definition = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string; steps: unknown[] };
    expect(definition).toMatchObject({
      version: '1.0',
      steps: [{ id: 'collect' }, { id: 'pick_node_id', depends_on: ['collect'] }],
    });

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Import JSON…' }).click(),
    ]);
    await chooser.setFiles({
      name: 'note-new-nodes.workflow.json',
      mimeType: 'application/json',
      buffer: fs.readFileSync(file),
    });
    await page.getByText(/is imported with 2 steps/).waitFor();
    await eventually(() => page.getByTestId('dag-view').locator('.react-flow__edge').count()).toBe(1);
    const copyId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(copyId).not.toBe(workflowId);
    expect((await api<{ steps: unknown[] }>('GET', `/workflows/${copyId}`)).steps).toHaveLength(2);

    await page.getByRole('button', { name: 'Run…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /Run/ });
    await dialog.getByRole('textbox', { name: 'entity_id' }).fill('typed-by-hand');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('execution-status').getByText('completed').waitFor();
    const executionId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect((await api<Execution>('GET', `/workflows/executions/${executionId}`)).steps.at(-1)?.output).toEqual({
      value: 'typed-by-hand',
    });
  });

  it('cancels a run that is still going', async () => {
    // A local server that never answers keeps the run's only step busy until it is cancelled.
    const open = new Set<http.ServerResponse>();
    const slow = http.createServer((_request, response) => void open.add(response));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      await api('PATCH', '/settings', { web: { allow_private_addresses: true } });
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
      const workflow = await api<{ id: string }>('POST', '/workflows', {
        name: 'Wait for a slow server',
        steps: [
          { id: 'call', name: 'Call', tool_type: 'system_tool', tool_id: 'http.request', configuration: { url } },
        ],
      });
      await page.goto(`/automation/workflows/${workflow.id}`);
      await page.getByRole('button', { name: 'Run…', exact: true }).click();
      await page.getByRole('dialog', { name: /Run/ }).getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByTestId('execution-status').getByText('running').waitFor();
      await page.getByRole('button', { name: 'Cancel the run' }).click();
      await page.getByTestId('execution-status').getByText('cancelled').waitFor();
      const executionId = new URL(page.url()).pathname.split('/').at(-1)!;
      expect((await api<Execution>('GET', `/workflows/executions/${executionId}`)).status).toBe('cancelled');
    } finally {
      for (const response of open) response.destroy();
      slow.close();
    }
  });
});
