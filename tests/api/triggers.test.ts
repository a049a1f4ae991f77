import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutomationServer, toolStep, type automationClient } from '../support/automation.ts';
import type { LocalWeb } from '../support/local-web.ts';
import type { TestServer } from '../support/server.ts';
import { isoPattern, validationIssuesOf, type PageOf } from '../support/api-assertions.ts';

interface Trigger {
  id: string;
  name: string;
  event_source: string;
  filters?: Record<string, unknown>;
  workflow_id: string;
  workflow_inputs?: Record<string, unknown> | null;
  enabled: boolean;
  priority: number;
  created_at: string;
  updated_at: string;
}

interface ExecutionRow {
  id: string;
  trigger_id: string;
  task_id: string;
  status: string;
  inputs: string;
}

describe('triggers: CRUD, dispatch rules and statistics', () => {
  let server: TestServer;
  let web: LocalWeb;
  let db: Knex;
  let client: ReturnType<typeof automationClient>;
  let recorder: string;
  const triggerKeys = [
    'id',
    'name',
    'event_source',
    'filters',
    'workflow_id',
    'workflow_inputs',
    'enabled',
    'priority',
    'created_at',
    'updated_at',
  ].sort();

  const createTrigger = async (body: Record<string, unknown>) =>
    client.ok<Trigger>(await client.call('POST', '/triggers', { filters: {}, workflow_id: recorder, ...body }), 201);
  const createNode = async (label: string) =>
    client.ok<{ id: string }>(
      await client.call('POST', '/nodes', { template_id: 'system_template_person', label }),
      201,
    ).id;
  /** Executions started for an entity, once the dispatcher has queued and the worker written them. */
  const executionsFor = async (entityId: string, expected: number) =>
    client.eventually(async () => {
      await server.platform.automation.dispatcher.settled();
      // Filtered here rather than in SQL, so the test reads the executions the same way on either backend.
      const rows = ((await db('workflow_executions').whereNotNull('trigger_id')) as ExecutionRow[]).filter(
        (row) =>
          (JSON.parse(String((row as { inputs?: unknown }).inputs ?? '{}')) as { entity_id?: string }).entity_id ===
          entityId,
      );
      return rows.length >= expected && rows.every((row) => ['completed', 'failed'].includes(row.status))
        ? rows
        : undefined;
    }, `${expected} executions for ${entityId}`);
  const byTrigger = (rows: ExecutionRow[]) =>
    Object.fromEntries(rows.map((row) => [row.trigger_id, JSON.parse(row.inputs) as Record<string, unknown>]));

  beforeAll(async () => {
    ({ server, web, db, client } = await startAutomationServer());
    // The system auto-embedding trigger would add an execution per node; these tests count only their own.
    client.ok(await client.call('PATCH', '/settings', { embedding: { enable_auto_embedding: false } }));
    recorder = (
      await client.createWorkflow({
        name: 'Recorder',
        steps: [
          toolStep('wait', 'http.request', { url: `${web.url}/slow?ms=60` }),
          toolStep(
            'record',
            'data.merge',
            { items: [{ id: '{{inputs.entity_id}}', type: '{{inputs.entity_type}}', tag: '{{inputs.tag}}' }] },
            { depends_on: ['wait'] },
          ),
        ],
      })
    ).id;
  });

  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });

  it('creates, reads, lists, filters, updates and deletes triggers', async () => {
    const created = await createTrigger({
      name: 'On person',
      event_source: 'thing.happen',
      filters: { entity_type: 'node' },
      workflow_inputs: { tag: 'x' },
      priority: 3,
    });
    expect(Object.keys(created).sort()).toEqual(triggerKeys);
    expect(created).toMatchObject({
      name: 'On person',
      event_source: 'thing.happen',
      filters: { entity_type: 'node' },
      workflow_id: recorder,
      workflow_inputs: { tag: 'x' },
      enabled: true,
      priority: 3,
    });
    expect(created.created_at).toMatch(isoPattern);
    expect(client.ok<Trigger>(await client.call('GET', `/triggers/${created.id}`))).toEqual(created);

    const defaults = await createTrigger({ name: 'Defaults', event_source: 'thing.happen', enabled: false });
    expect(defaults).toMatchObject({ workflow_inputs: null, enabled: false, priority: 0 });
    const listed = client.ok<PageOf<Trigger>>(await client.call('GET', '/triggers?event_source=thing.happen'));
    expect(listed.data.map((trigger) => trigger.id)).toEqual([defaults.id, created.id]);
    expect(Object.keys(listed.data[0]).sort()).toEqual(
      triggerKeys.filter((key) => key !== 'filters' && key !== 'workflow_inputs'),
    );
    expect(listed.pagination).toMatchObject({ total: 2, page: 1, page_size: 50 });
    expect(
      client
        .ok<PageOf<Trigger>>(await client.call('GET', '/triggers?event_source=thing.happen&enabled=false'))
        .data.map((trigger) => trigger.id),
    ).toEqual([defaults.id]);
    expect(client.ok<PageOf<Trigger>>(await client.call('GET', '/triggers?page_size=1000')).pagination.page_size).toBe(
      1000,
    );
    validationIssuesOf(await client.call('GET', '/triggers?page_size=1001'));
    expect(
      client.ok<Trigger[]>(await client.call('GET', `/workflows/${recorder}/triggers`)).map((trigger) => trigger.id),
    ).toEqual([defaults.id, created.id]);

    const patched = client.ok<Trigger>(
      await client.call('PATCH', `/triggers/${created.id}`, {
        filters: { entity_id: 'n1' },
        workflow_inputs: null,
        priority: -1,
      }),
    );
    expect(patched).toMatchObject({
      filters: { entity_id: 'n1' },
      workflow_inputs: null,
      priority: -1,
      name: 'On person',
    });
    expect(patched.updated_at >= created.updated_at).toBe(true);

    expect((await client.call('DELETE', `/triggers/${created.id}`)).status).toBe(204);
    expect((await client.call('DELETE', `/triggers/${defaults.id}`)).status).toBe(204);
    expect((await client.call('GET', `/triggers/${created.id}`)).status).toBe(404);
  });

  it('refuses bad triggers with 422 and answers 404 for unknown ones', async () => {
    const before = await db('triggers').count({ n: '*' });
    expect(
      validationIssuesOf(
        await client.call('POST', '/triggers', {
          name: 'x',
          event_source: 'node.create',
          filters: {},
          workflow_id: 'wf_nope',
        }),
      )[0].loc,
    ).toEqual(['body', 'workflow_id']);
    expect(
      validationIssuesOf(
        await client.call('POST', '/triggers', { name: 'x', event_source: '  ', filters: {}, workflow_id: recorder }),
      )[0].loc,
    ).toEqual(['body', 'event_source']);
    expect(
      validationIssuesOf(
        await client.call('POST', '/triggers', { name: 'x', event_source: 'node.create', workflow_id: recorder }),
      )[0].loc,
    ).toEqual(['body', 'filters']);
    expect(
      validationIssuesOf(
        await client.call('POST', '/triggers', {
          name: 'x',
          event_source: 'node.create',
          filters: {},
          workflow_id: recorder,
          priority: 1.5,
        }),
      )[0].loc,
    ).toEqual(['body', 'priority']);
    expect(await db('triggers').count({ n: '*' })).toEqual(before);
    for (const [method, path] of [
      ['GET', '/triggers/trg_nope'],
      ['GET', '/triggers/trg_nope/stats'],
      ['PATCH', '/triggers/trg_nope'],
      ['DELETE', '/triggers/trg_nope'],
    ] as const) {
      const result = await client.call(method, path, method === 'PATCH' ? { name: 'n' } : undefined);
      expect(result.status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await client.call('PATCH', '/triggers/system_trigger_auto_embed_create_v1', { workflow_id: 'wf_nope' })).status,
    ).toBe(422);
    expect((await client.call('DELETE', '/triggers/system_trigger_auto_embed_create_v1')).status).toBe(400);
  });

  it('fires enabled triggers by exact event source and top-level filters, lower priority first', async () => {
    const late = await createTrigger({
      name: 'late',
      event_source: 'node.create',
      filters: { entity_type: 'node' },
      workflow_inputs: { tag: 'late' },
      priority: 5,
    });
    const early = await createTrigger({
      name: 'early',
      event_source: 'node.create',
      filters: {},
      workflow_inputs: { tag: 'early' },
      priority: 1,
    });
    const mismatch = await createTrigger({
      name: 'edges only',
      event_source: 'node.create',
      filters: { entity_type: 'edge' },
    });
    const absent = await createTrigger({ name: 'absent key', event_source: 'node.create', filters: { label: 'Ada' } });
    const disabled = await createTrigger({ name: 'disabled', event_source: 'node.create', enabled: false });
    const prefix = await createTrigger({ name: 'not exact', event_source: 'node.created' });
    const onEdge = await createTrigger({
      name: 'edges',
      event_source: 'edge.create',
      filters: { entity_type: 'edge' },
    });

    const ada = await createNode('Ada');
    const rows = await executionsFor(ada, 2);
    expect(byTrigger(rows)).toEqual({
      [early.id]: { entity_type: 'node', entity_id: ada, tag: 'early' },
      [late.id]: { entity_type: 'node', entity_id: ada, tag: 'late' },
    });
    for (const quiet of [mismatch, absent, disabled, prefix, onEdge])
      expect(rows.some((row) => row.trigger_id === quiet.id)).toBe(false);
    // Queued in priority order: the queue lists newest first, so the lower priority's task comes last.
    const tasks = client
      .ok<{ data: { task_id: string }[] }>(await client.call('GET', '/queue/tasks?page_size=100'))
      .data.map((task) => task.task_id);
    const taskOf = (triggerId: string) => rows.find((row) => row.trigger_id === triggerId)!.task_id;
    expect(tasks.indexOf(taskOf(early.id))).toBeGreaterThan(tasks.indexOf(taskOf(late.id)));
    const execution = await client.waitForExecution(rows.find((row) => row.trigger_id === early.id)!.id);
    expect(execution.outputs).toEqual({ record: { result: { id: ada, type: 'node', tag: 'early' } } });

    // Edges fire edge.create; the node.create triggers stay quiet.
    const grace = await createNode('Grace');
    await executionsFor(grace, 2);
    const edge = client.ok<{ id: string }>(
      await client.call('POST', '/edges', {
        template_id: 'system_template_link',
        source_node_id: ada,
        target_node_id: grace,
        label: 'knows',
      }),
      201,
    ).id;
    expect(Object.keys(byTrigger(await executionsFor(edge, 1)))).toEqual([onEdge.id]);

    // Enabling a trigger takes effect for the next event.
    client.ok(await client.call('PATCH', `/triggers/${disabled.id}`, { enabled: true }));
    const linus = await createNode('Linus');
    expect(Object.keys(byTrigger(await executionsFor(linus, 3))).sort()).toEqual(
      [early.id, late.id, disabled.id].sort(),
    );

    for (const trigger of [late, early, mismatch, absent, disabled, prefix, onEdge])
      client.ok(await client.call('DELETE', `/triggers/${trigger.id}`), 204);
  });

  it('fires for nodes and edges created in a batch', async () => {
    const trigger = await createTrigger({ name: 'batch', event_source: 'node.create' });
    const edgeTrigger = await createTrigger({ name: 'batch edges', event_source: 'edge.create' });
    const queued = client.ok<{ task_id: string }>(
      await client.call('POST', '/nodes/batch', {
        operations: [
          { operation: 'create', data: { template_id: 'system_template_person', label: 'Batch one' } },
          { operation: 'create', data: { template_id: 'system_template_person', label: 'Batch two' } },
        ],
      }),
      202,
    );
    const result = await client.eventually(async () => {
      const task = client.ok<{ status: string }>(await client.call('GET', `/queue/tasks/${queued.task_id}`));
      return task.status === 'completed'
        ? client.ok<{ result: { results: { id: string }[] } }>(
            await client.call('GET', `/queue/tasks/${queued.task_id}/result`),
          ).result
        : undefined;
    }, 'the batch');
    for (const { id } of result.results)
      expect(Object.keys(byTrigger(await executionsFor(id, 1)))).toEqual([trigger.id]);
    const [one, two] = result.results.map((item) => item.id);
    const edges = client.ok<{ task_id: string }>(
      await client.call('POST', '/edges/batch', {
        operations: [
          {
            operation: 'create',
            data: { template_id: 'system_template_link', source_node_id: one, target_node_id: two, label: 'pairs' },
          },
        ],
      }),
      202,
    );
    const edgeResult = await client.eventually(async () => {
      const task = client.ok<{ status: string }>(await client.call('GET', `/queue/tasks/${edges.task_id}`));
      return task.status === 'completed'
        ? client.ok<{ result: { results: { id: string }[] } }>(
            await client.call('GET', `/queue/tasks/${edges.task_id}/result`),
          ).result
        : undefined;
    }, 'the edge batch');
    expect(Object.keys(byTrigger(await executionsFor(edgeResult.results[0].id, 1)))).toEqual([edgeTrigger.id]);
    client.ok(await client.call('DELETE', `/triggers/${trigger.id}`), 204);
    client.ok(await client.call('DELETE', `/triggers/${edgeTrigger.id}`), 204);
  });

  it('reports real statistics per trigger, average duration included', async () => {
    const trigger = await createTrigger({ name: 'counted', event_source: 'node.create' });
    const empty = client.ok(await client.call('GET', `/triggers/${trigger.id}/stats`));
    expect(empty).toEqual({
      total_executions: 0,
      successful_executions: 0,
      failed_executions: 0,
      success_rate: 0,
      average_duration_ms: 0,
    });
    for (const label of ['S1', 'S2']) await executionsFor(await createNode(label), 1);
    const stats = client.ok<Record<string, number>>(await client.call('GET', `/triggers/${trigger.id}/stats`));
    expect(stats).toMatchObject({
      total_executions: 2,
      successful_executions: 2,
      failed_executions: 0,
      success_rate: 1,
    });
    // Every execution waits 60 ms on the local web server.
    expect(stats.average_duration_ms).toBeGreaterThanOrEqual(60);
    client.ok(await client.call('DELETE', `/triggers/${trigger.id}`), 204);
  });

  it('ignores triggers of inactive workflows, and deleting a workflow deletes its triggers', async () => {
    const workflow = await client.createWorkflow({
      name: 'Short-lived',
      steps: [toolStep('noop', 'data.merge', { items: [{}] })],
    });
    const trigger = await createTrigger({ name: 'short', event_source: 'node.create', workflow_id: workflow.id });
    const witness = await createTrigger({ name: 'witness', event_source: 'node.create' });
    client.ok(await client.call('PATCH', `/workflows/${workflow.id}`, { is_active: false }));
    const quiet = await createNode('Quiet');
    expect(Object.keys(byTrigger(await executionsFor(quiet, 1)))).toEqual([witness.id]);
    expect((await client.call('DELETE', `/workflows/${workflow.id}`)).status).toBe(204);
    expect((await client.call('GET', `/triggers/${trigger.id}`)).status).toBe(404);
    client.ok(await client.call('DELETE', `/triggers/${witness.id}`), 204);
  });
});
