import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesOf } from '../../packages/core/test/ccx/zip-fixtures.ts';
import { startAutomationServer, toolStep, type automationClient } from '../support/automation.ts';
import { validationIssuesOf } from '../support/api-assertions.ts';
import type { LocalWeb } from '../support/local-web.ts';
import { type TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';
import type { TriggerResponseBody as Trigger } from '@rhizome/contracts/api/triggers';
import { sleep } from '../support/wait.ts';

interface Fired {
  trigger_id: string;
  fired: boolean;
  execution_id: string | null;
  task_id: string | null;
  status: string;
  message: string;
}

describe('automation hardening: triggers fired from outside, triggers carried by packages', () => {
  let server: TestServer;
  let web: LocalWeb;
  let db: Knex;
  let client: ReturnType<typeof automationClient>;

  const createTrigger = async (body: Record<string, unknown>) =>
    client.ok<Trigger>(await client.call('POST', '/triggers', { filters: {}, ...body }), 201);
  const createNode = async (label: string) =>
    client.ok<{ id: string }>(
      await client.call('POST', '/nodes', { template_id: 'system_template_person', label }),
      201,
    ).id;

  async function waitForTask(taskId: string): Promise<Record<string, unknown>> {
    return client.eventually(async () => {
      const task = client.ok<{ status: string; error: string | null }>(
        await client.call('GET', `/queue/tasks/${taskId}`),
      );
      if (task.status === 'failed' || task.status === 'cancelled')
        throw new Error(`task ${taskId} ${task.status}: ${task.error}`);
      return task.status === 'completed'
        ? client.ok<{ result: Record<string, unknown> }>(await client.call('GET', `/queue/tasks/${taskId}/result`))
            .result
        : undefined;
    }, `task ${taskId}`);
  }

  async function exportPackage(): Promise<Buffer> {
    const queued = client.ok<{ task_id: string }>(await client.call('POST', '/exports'), 202);
    return Buffer.from((await waitForTask(queued.task_id)).content as string, 'base64');
  }

  async function importPackage(bytes: Buffer, merge: boolean): Promise<Record<string, unknown>> {
    const accepted = await uploadSources(
      server,
      sessionCookie,
      '/exports/import',
      [{ name: 'package.ccx', content: bytes }],
      { merge: String(merge) },
    );
    expect(accepted.status, accepted.text).toBe(202);
    return waitForTask((accepted.body as { task_id: string }).task_id);
  }

  /** Executions the trigger started, once every one has finished. */
  async function finishedExecutionsOf(triggerId: string, expected: number) {
    return client.eventually(async () => {
      await server.platform.automation.dispatcher.settled();
      const rows = (await db('workflow_executions').where({ trigger_id: triggerId })) as {
        id: string;
        status: string;
        inputs: string;
      }[];
      return rows.length >= expected && rows.every((row) => ['completed', 'failed'].includes(row.status))
        ? rows
        : undefined;
    }, `${expected} executions of ${triggerId}`);
  }

  const logText = () =>
    fs
      .readdirSync(path.join(server.dataDir, 'logs'))
      .map((name) => fs.readFileSync(path.join(server.dataDir, 'logs', name), 'utf8'))
      .join('\n');

  /** The uploads go through fetch's multipart body, with a session of their own. */
  let sessionCookie = '';

  beforeAll(async () => {
    ({ server, web, db, client } = await startAutomationServer());
    sessionCookie = (
      await server.call('POST', '/auth/login', { body: { username: 'operator', password: 'correct horse battery' } })
    ).cookie!;
  });

  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });

  it('accepts any event source name, and POST /triggers/{id}/fire runs the workflow with the payload as a webhook would', async () => {
    const workflow = await client.createWorkflow({
      name: 'On push',
      input_schema: {
        type: 'object',
        required: ['repo'],
        properties: { repo: { type: 'string' }, branch: { type: 'string' }, tag: { type: 'string' } },
      },
      steps: [
        toolStep('record', 'data.merge', {
          items: [{ repo: '{{inputs.repo}}', tag: '{{inputs.tag}}', branch: '{{inputs.branch}}' }],
        }),
      ],
    });
    const webhook = await createTrigger({
      name: 'GitHub push',
      event_source: 'webhook',
      filters: { branch: 'main' },
      workflow_id: workflow.id,
      workflow_inputs: { tag: 'ci' },
    });
    expect(webhook.event_source).toBe('webhook');
    for (const name of ['nodecreate', 'github.push.main', 'Deploy finished']) {
      expect((await createTrigger({ name, event_source: name, workflow_id: workflow.id })).event_source).toBe(name);
    }
    expect(
      validationIssuesOf(
        await client.call('POST', '/triggers', {
          name: 'blank',
          event_source: '   ',
          filters: {},
          workflow_id: workflow.id,
        }),
      )[0].loc,
    ).toEqual(['body', 'event_source']);

    const fired = client.ok<Fired>(
      await client.call('POST', `/triggers/${webhook.id}/fire`, { repo: 'rhizome', branch: 'main', tag: 'overridden' }),
      202,
    );
    expect(fired).toMatchObject({
      trigger_id: webhook.id,
      fired: true,
      status: 'queued',
      execution_id: expect.any(String),
      task_id: expect.any(String),
    });
    const execution = await client.waitForExecution(fired.execution_id!);
    expect(execution).toMatchObject({
      status: 'completed',
      trigger_id: webhook.id,
      inputs: { repo: 'rhizome', branch: 'main', tag: 'ci' },
    });
    expect(execution.outputs).toEqual({ record: { result: { repo: 'rhizome', tag: 'ci', branch: 'main' } } });
    expect(
      client.ok<{ total_executions: number }>(await client.call('GET', `/triggers/${webhook.id}/stats`))
        .total_executions,
    ).toBe(1);

    const skipped = client.ok<Fired>(
      await client.call('POST', `/triggers/${webhook.id}/fire`, { repo: 'rhizome', branch: 'dev' }),
      202,
    );
    expect(skipped).toMatchObject({ fired: false, status: 'skipped', execution_id: null, task_id: null });
    expect(client.ok<Fired>(await client.call('POST', `/triggers/${webhook.id}/fire`), 202)).toMatchObject({
      fired: false,
      message: expect.stringContaining("'branch'"),
    });

    const openApi = client.ok<{ paths: Record<string, Record<string, unknown>> }>(
      await client.call('GET', '/openapi.json'),
    );
    expect(Object.keys(openApi.paths['/triggers/{trigger_id}/fire'])).toEqual(['post']);
  });

  it('refuses to fire without credentials (401), an unknown trigger (404), a disabled one (409), and a body that is no payload or inputs the workflow refuses (422)', async () => {
    const workflow = await client.createWorkflow({
      name: 'Needs repo',
      input_schema: { type: 'object', required: ['repo'] },
      steps: [toolStep('noop', 'data.merge', { items: [{}] })],
    });
    const trigger = await createTrigger({ name: 'hook', event_source: 'webhook', workflow_id: workflow.id });
    const executionsBefore = await db('workflow_executions').count({ n: '*' });

    const anonymous = await server.call('POST', `/triggers/${trigger.id}/fire`, { body: { repo: 'x' } });
    expect(anonymous.status).toBe(401);
    expect((await client.call('POST', '/triggers/trg_nope/fire', { repo: 'x' })).status).toBe(404);
    expect(validationIssuesOf(await client.call('POST', `/triggers/${trigger.id}/fire`, [1, 2]))[0].loc).toEqual([
      'body',
    ]);
    const refused = validationIssuesOf(await client.call('POST', `/triggers/${trigger.id}/fire`, { branch: 'main' }));
    expect(refused[0]).toMatchObject({ loc: ['body'], msg: expect.stringContaining("'repo'") });
    client.ok(await client.call('PATCH', `/triggers/${trigger.id}`, { enabled: false }));
    const disabled = await client.call('POST', `/triggers/${trigger.id}/fire`, { repo: 'x' });
    expect(disabled.status, disabled.text).toBe(409);
    expect((disabled.body as { error: string }).error).toBe('CONFLICT');
    expect(await db('workflow_executions').count({ n: '*' })).toEqual(executionsBefore);
  });

  it('a replacing import restores the triggers of the package, and the imported nodes fire them, with no foreign-key failure', async () => {
    const workflow = await client.createWorkflow({
      name: 'Recorder',
      steps: [toolStep('record', 'data.merge', { items: [{ id: '{{inputs.entity_id}}', tag: '{{inputs.tag}}' }] })],
    });
    const onNode = await createTrigger({
      name: 'On node',
      event_source: 'node.create',
      filters: { entity_type: 'node' },
      workflow_id: workflow.id,
      workflow_inputs: { tag: 'imported' },
      priority: 4,
    });
    // A user trigger may start a system workflow: it travels too.
    const onEdge = await createTrigger({
      name: 'Embed on edge',
      event_source: 'edge.create',
      workflow_id: 'system_workflow_generate_embeddings_v1',
      enabled: false,
    });
    for (const label of ['Ada', 'Grace', 'Linus']) await createNode(label);
    await finishedExecutionsOf(onNode.id, 3);

    const bytes = await exportPackage();
    const carried = JSON.parse((await entriesOf(bytes)).get('workflows.jsonld')!.toString()) as { triggers: Trigger[] };
    expect(carried.triggers.map((trigger) => trigger.id).sort()).toEqual(
      expect.arrayContaining([onNode.id, onEdge.id].sort()),
    );
    expect(carried.triggers.some((trigger) => trigger.id === 'system_trigger_auto_embed_create_v1')).toBe(false);

    // Made after the export, known to the dispatcher: the import replaces it away, so the imported nodes must not fire it.
    const replacedAway = await createTrigger({
      name: 'Not in the package',
      event_source: 'node.create',
      workflow_id: 'system_workflow_generate_embeddings_v1',
      workflow_inputs: { force: true },
    });
    await createNode('Warms the trigger cache');
    await server.platform.automation.dispatcher.settled();

    const stats = await importPackage(bytes, false);
    expect(stats).toMatchObject({ triggers_imported: carried.triggers.length, triggers_skipped: 0 });
    expect((await client.call('GET', `/triggers/${replacedAway.id}`)).status).toBe(404);
    const restored = client.ok<Trigger>(await client.call('GET', `/triggers/${onNode.id}`));
    expect(restored).toMatchObject({
      name: 'On node',
      event_source: 'node.create',
      filters: { entity_type: 'node' },
      workflow_id: workflow.id,
      workflow_inputs: { tag: 'imported' },
      priority: 4,
      enabled: true,
    });
    expect(client.ok<Trigger>(await client.call('GET', `/triggers/${onEdge.id}`))).toMatchObject({
      workflow_id: 'system_workflow_generate_embeddings_v1',
      enabled: false,
    });

    // The three imported nodes are new: each fired the restored trigger.
    const rows = await finishedExecutionsOf(onNode.id, 3);
    expect(rows.map((row) => row.status)).toEqual(['completed', 'completed', 'completed']);
    const nodeIds = ((await db('graph_nodes').select('id')) as { id: string }[]).map((row) => row.id).sort();
    expect(rows.map((row) => (JSON.parse(row.inputs) as { entity_id: string }).entity_id).sort()).toEqual(nodeIds);
    const forced = (await db('workflow_executions')
      .where({ workflow_id: 'system_workflow_generate_embeddings_v1' })
      .whereRaw("json_extract(inputs, '$.force') = 1")) as { inputs: string }[];
    expect(
      forced.filter((row) => nodeIds.includes((JSON.parse(row.inputs) as { entity_id: string }).entity_id)),
    ).toEqual([]);
    // Every execution the nodes started, before and after the import (auto-embedding included), has ended.
    await client.eventually(
      async () =>
        (await db('workflow_executions').whereIn('status', ['queued', 'running']).first('id')) ? undefined : true,
      'all executions',
    );
    const failed = client.ok<{ data: { error: string | null }[] }>(
      await client.call('GET', '/queue/tasks?status=failed&page_size=1000'),
    ).data;
    expect(failed.filter((task) => /FOREIGN KEY/i.test(task.error ?? ''))).toEqual([]);
    await sleep(200);
    expect(logText()).not.toMatch(/FOREIGN KEY/i);
  });

  it('a merging import adds the triggers the database lacks and skips those it has', async () => {
    const workflow = await client.createWorkflow({
      name: 'Merged',
      steps: [toolStep('noop', 'data.merge', { items: [{}] })],
    });
    const kept = await createTrigger({ name: 'Kept', event_source: 'webhook', workflow_id: workflow.id });
    const dropped = await createTrigger({
      name: 'Dropped',
      event_source: 'webhook',
      workflow_id: workflow.id,
      filters: { source: 'ci' },
    });
    const bytes = await exportPackage();
    client.ok(await client.call('DELETE', `/triggers/${dropped.id}`), 204);
    const before = ((await db('triggers').count({ n: '*' })) as { n: number }[])[0].n;

    const stats = await importPackage(bytes, true);
    expect(stats).toMatchObject({ triggers_imported: 1 });
    expect(stats.triggers_skipped).toBeGreaterThanOrEqual(1);
    expect(client.ok<Trigger>(await client.call('GET', `/triggers/${dropped.id}`))).toMatchObject({
      name: 'Dropped',
      filters: { source: 'ci' },
      workflow_id: workflow.id,
    });
    expect(client.ok<Trigger>(await client.call('GET', `/triggers/${kept.id}`)).name).toBe('Kept');
    expect(((await db('triggers').count({ n: '*' })) as { n: number }[])[0].n).toBe(before + 1);
  });
});
