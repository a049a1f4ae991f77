import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutomationServer, toolStep, type automationClient } from '../support/automation.ts';
import type { LocalWeb } from '../support/local-web.ts';
import type { TestServer } from '../support/server.ts';

/** A field's JSON type; a trailing `?` also allows null. */
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
type Shape = Record<string, Kind | `${Kind}?`>;

function kindOf(value: unknown): Kind | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

/** Every key of `shape` is present in `body` with its type (an integer passes as a number). */
function expectShape(body: unknown, shape: Shape, what: string): void {
  expect(kindOf(body), what).toBe('object');
  const record = body as Record<string, unknown>;
  for (const [key, expected] of Object.entries(shape)) {
    expect(record, `${what}.${key}`).toHaveProperty(key);
    const kind = kindOf(record[key]);
    const allowed = [expected.replace('?', ''), ...(expected.endsWith('?') ? ['null'] : [])];
    if (allowed.includes('number')) allowed.push('integer');
    expect(allowed, `${what}.${key} is ${kind}`).toContain(kind);
  }
}

const workflowShape: Shape = {
  id: 'string',
  database_name: 'string',
  name: 'string',
  description: 'string?',
  category: 'string',
  is_system: 'boolean',
  is_active: 'boolean',
  expose_as_ai_tool: 'boolean',
  input_schema: 'object?',
  output_schema: 'object?',
  allow_parallel_execution: 'boolean',
  timeout_seconds: 'integer?',
  max_retries: 'integer',
  tags: 'array?',
  icon: 'string?',
  version: 'string',
  created_by: 'string?',
  created_at: 'string',
  updated_at: 'string',
  last_executed_at: 'string?',
};

const stepShape: Shape = {
  id: 'string',
  workflow_id: 'string',
  step_number: 'integer',
  name: 'string',
  description: 'string?',
  tool_type: 'string',
  tool_id: 'string',
  configuration: 'object',
  retry_on_failure: 'boolean',
  timeout_seconds: 'integer?',
  depends_on: 'array?',
  continue_on_error: 'boolean',
  created_at: 'string',
  updated_at: 'string',
};

const executionShape: Shape = {
  id: 'string',
  workflow_id: 'string',
  triggered_by: 'string',
  trigger_id: 'string?',
  parent_execution_id: 'string?',
  inputs: 'object',
  outputs: 'object?',
  status: 'string',
  current_step_id: 'string?',
  failed_step_id: 'string?',
  error_message: 'string?',
  duration_ms: 'integer?',
  created_at: 'string',
  started_at: 'string?',
  completed_at: 'string?',
};

const stepExecutionShape: Shape = {
  id: 'string',
  execution_id: 'string',
  step_id: 'string',
  status: 'string',
  error_message: 'string?',
  duration_ms: 'integer?',
  created_at: 'string?',
  started_at: 'string?',
  completed_at: 'string?',
};

const madeShape: Shape = { workflow_id: 'string', message: 'string', was_existing: 'boolean' };

/** Workflows, steps and executions in the shapes clients written for the older system read. */
describe('workflows and executions in the shapes older clients read', () => {
  let server: TestServer;
  let web: LocalWeb;
  let client: ReturnType<typeof automationClient>;
  const errorOf = (result: { body: unknown }) => (result.body as { error: string }).error;

  beforeAll(async () => {
    ({ server, web, client } = await startAutomationServer());
  });
  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });

  const create = async (body: Record<string, unknown>) =>
    client.ok<Record<string, unknown> & { id: string; name: string }>(
      await client.call('POST', '/workflows', body),
      201,
    );

  it('creates, lists with filters, reads, patches and deletes WorkflowResponse objects', async () => {
    const created = await create({
      name: 'Shapes: exposed',
      category: 'shapes',
      expose_as_ai_tool: true,
      input_schema: { type: 'object', properties: {} },
      tags: ['a'],
    });
    expectShape(created, workflowShape, 'POST /workflows');
    expect(created).toMatchObject({ database_name: 'default', version: '1', created_by: null, last_executed_at: null });
    const hidden = await create({ name: 'Shapes: hidden', category: 'shapes', is_active: false });

    const listed = client.ok<{ data: { id: string }[]; pagination: Record<string, unknown> }>(
      await client.call('GET', '/workflows?category=shapes&page=1&page_size=10'),
    );
    expect(listed.data.map((workflow) => workflow.id).sort()).toEqual([created.id, hidden.id].sort());
    for (const workflow of listed.data) expectShape(workflow, workflowShape, 'GET /workflows item');
    expectShape(listed.pagination, { total: 'integer', page: 'integer', page_size: 'integer' }, 'pagination');
    const ids = async (query: string) =>
      client
        .ok<{ data: { id: string }[] }>(await client.call('GET', `/workflows?category=shapes&${query}`))
        .data.map((workflow) => workflow.id);
    expect(await ids('expose_as_ai_tool=true')).toEqual([created.id]);
    expect(await ids('expose_as_ai_tool=false')).toEqual([hidden.id]);
    expect(await ids('is_active=false')).toEqual([hidden.id]);
    expect(await ids('is_system=true')).toEqual([]);

    const read = client.ok(await client.call('GET', `/workflows/${created.id}`));
    expectShape(read, workflowShape, 'GET /workflows/{id}');
    const patched = client.ok<Record<string, unknown>>(
      await client.call('PATCH', `/workflows/${created.id}`, { description: 'now described' }),
    );
    expectShape(patched, workflowShape, 'PATCH /workflows/{id}');
    expect(patched).toMatchObject({ description: 'now described', name: 'Shapes: exposed', tags: ['a'], version: '2' });

    const missing = await client.call('GET', '/workflows/wf_nope');
    expect([missing.status, errorOf(missing)]).toEqual([404, 'NOT_FOUND']);
    expect((await client.call('PATCH', '/workflows/wf_nope', { name: 'x' })).status).toBe(404);
    expect((await client.call('DELETE', `/workflows/${hidden.id}`)).status).toBe(204);
    expect((await client.call('DELETE', `/workflows/${hidden.id}`)).status).toBe(404);
  });

  it('GET /workflows/stats carries the eight global figures', async () => {
    const stats = client.ok(await client.call('GET', '/workflows/stats'));
    expectShape(
      stats,
      {
        total_workflows: 'integer',
        active_workflows: 'integer',
        inactive_workflows: 'integer',
        total_executions: 'integer',
        successful_executions: 'integer',
        failed_executions: 'integer',
        cancelled_executions: 'integer',
        success_rate: 'number',
      },
      'GET /workflows/stats',
    );
  });

  it('manages steps: list by step_number, create, read, patch, reorder, delete', async () => {
    const { id } = await create({ name: 'Shapes: steps' });
    const first = client.ok<Record<string, unknown>>(
      await client.call('POST', `/workflows/${id}/steps`, toolStep('first', 'data.merge', { items: [{ a: 1 }] })),
      201,
    );
    expectShape(first, stepShape, 'POST /workflows/{id}/steps');
    client.ok(
      await client.call('POST', `/workflows/${id}/steps`, toolStep('second', 'data.merge', { items: [{ b: 2 }] })),
      201,
    );
    client.ok(
      await client.call('POST', `/workflows/${id}/steps`, toolStep('third', 'data.merge', { items: [{ c: 3 }] })),
      201,
    );
    const read = client.ok(await client.call('GET', `/workflows/${id}/steps/second`));
    expectShape(read, stepShape, 'GET /workflows/{id}/steps/{step_id}');
    expect((await client.call('GET', `/workflows/${id}/steps/nope`)).status).toBe(404);
    const patched = client.ok(await client.call('PATCH', `/workflows/${id}/steps/second`, { name: 'Second' }));
    expect(patched).toMatchObject({ id: 'second', name: 'Second' });

    const reordered = client.ok<{ id: string; step_number: number }[]>(
      await client.call('PUT', `/workflows/${id}/steps/reorder`, { step_order: ['third', 'first'] }),
    );
    for (const step of reordered) expectShape(step, stepShape, 'PUT /workflows/{id}/steps/reorder item');
    expect(reordered.map((step) => [step.id, step.step_number])).toEqual([
      ['third', 1],
      ['first', 2],
      ['second', 3],
    ]);
    const listed = client.ok<{ id: string }[]>(await client.call('GET', `/workflows/${id}/steps`));
    expect(listed.map((step) => step.id)).toEqual(['third', 'first', 'second']);
    const unknown = await client.call('PUT', `/workflows/${id}/steps/reorder`, { step_order: ['nope'] });
    expect([unknown.status, errorOf(unknown)]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await client.call('PUT', '/workflows/wf_nope/steps/reorder', { step_order: [] })).status).toBe(404);

    expect((await client.call('DELETE', `/workflows/${id}/steps/third`)).status).toBe(204);
    expect((await client.call('GET', `/workflows/${id}/steps/third`)).status).toBe(404);
    expect(client.ok(await client.call('GET', `/workflows/${id}/triggers`))).toEqual([]);
  });

  it('exports {data: ExportDoc, message} without ids, and 404 NOT_FOUND naming the workflow', async () => {
    const { id } = await create({
      name: 'Shapes: portable',
      input_schema: { type: 'object', properties: { x: { type: 'integer' } } },
      steps: [toolStep('one', 'data.merge', { items: [{ x: '{{inputs.x}}' }] })],
    });
    const exported = client.ok<{ data: Record<string, unknown>; message: string }>(
      await client.call('GET', `/workflows/${id}/export`),
    );
    expect(exported.message).toBe('Workflow exported successfully');
    expectShape(exported.data, { version: 'string', exported_at: 'string', workflow: 'object', steps: 'array' }, 'doc');
    expect(exported.data.version).toBe('1.0');
    const { workflow, steps } = exported.data as { workflow: Record<string, unknown>; steps: object[] };
    const {
      id: _id,
      database_name: _db,
      created_by: _by,
      created_at: _c,
      updated_at: _u,
      last_executed_at: _l,
      ...workflowKeys
    } = workflowShape;
    expectShape(workflow, workflowKeys, 'doc.workflow');
    expect(Object.keys(workflow)).not.toContain('id');
    const { id: _sid, workflow_id: _w, created_at: _sc, updated_at: _su, ...stepKeys } = stepShape;
    expectShape(steps[0], stepKeys, 'doc.steps[0]');
    expect(Object.keys(steps[0])).not.toContain('workflow_id');

    const missing = await client.call('GET', '/workflows/wf_nope/export');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      error: 'NOT_FOUND',
      details: { resource_type: 'workflow', identifier: 'wf_nope' },
    });
  });

  it('imports a document: 201 {workflow_id, message, was_existing}, fail/skip/rename, 400 and 409', async () => {
    const { id } = await create({
      name: 'Shapes: source',
      input_schema: { type: 'object', properties: {} },
      steps: [toolStep('one', 'data.merge', { items: [{ a: 1 }] })],
    });
    const document = client.ok<{ data: Record<string, unknown> & { workflow: Record<string, unknown> } }>(
      await client.call('GET', `/workflows/${id}/export`),
    ).data;
    const importing = (body: Record<string, unknown>) => client.call('POST', '/workflows/import', body);

    const taken = await importing({ workflow_data: document });
    expect([taken.status, errorOf(taken)]).toEqual([409, 'CONFLICT']);
    const skipped = client.ok<Record<string, unknown>>(
      await importing({ workflow_data: document, on_duplicate: 'skip' }),
      201,
    );
    expectShape(skipped, madeShape, 'import skip');
    expect(skipped).toMatchObject({ workflow_id: id, was_existing: true });

    const renamed = client.ok<Record<string, unknown>>(
      await importing({ workflow_data: document, on_duplicate: 'rename', import_as_inactive: true }),
      201,
    );
    expectShape(renamed, madeShape, 'import rename');
    expect(renamed.was_existing).toBe(false);
    const copy = client.ok<Record<string, unknown>>(
      await client.call('GET', `/workflows/${String(renamed.workflow_id)}`),
    );
    expect(copy).toMatchObject({ name: 'Shapes: source (imported)', is_active: false });
    const again = client.ok<{ workflow_id: string }>(
      await importing({ workflow_data: document, on_duplicate: 'rename' }),
      201,
    );
    expect(client.ok(await client.call('GET', `/workflows/${again.workflow_id}`))).toMatchObject({
      name: 'Shapes: source (imported) (2)',
    });
    const named = client.ok<{ workflow_id: string }>(
      await importing({ workflow_data: document, new_name: 'Shapes: renamed by hand' }),
      201,
    );
    expect(client.ok(await client.call('GET', `/workflows/${named.workflow_id}`))).toMatchObject({
      name: 'Shapes: renamed by hand',
      steps: [{ id: 'one' }],
    });

    const without = (key: string) => Object.fromEntries(Object.entries(document).filter(([k]) => k !== key));
    const withoutField = (key: string) => ({
      ...document,
      workflow: Object.fromEntries(Object.entries(document.workflow).filter(([k]) => k !== key)),
    });
    for (const [what, bad] of [
      ['no version', without('version')],
      ['no workflow', without('workflow')],
      ['no steps', without('steps')],
      ['version 2.0', { ...document, version: '2.0' }],
      ['no name', withoutField('name')],
      ['no input_schema', withoutField('input_schema')],
      ['no output_schema', withoutField('output_schema')],
      ['an unknown tool', { ...document, steps: [toolStep('x', 'no.such', {})] }],
    ] as const) {
      const refused = await importing({ workflow_data: { ...bad }, new_name: `Shapes: bad ${what}` });
      expect([refused.status, errorOf(refused)], `${what}: ${refused.text}`).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  it('duplicates as "<name> (imported)", then "(imported) (2)"; 404 NOT_FOUND', async () => {
    const { id } = await create({ name: 'Shapes: twin', steps: [toolStep('one', 'data.merge', { items: [{}] })] });
    const first = client.ok<Record<string, unknown>>(await client.call('POST', `/workflows/${id}/duplicate`), 201);
    expectShape(first, madeShape, 'duplicate');
    expect(first.was_existing).toBe(false);
    const second = client.ok<{ workflow_id: string }>(await client.call('POST', `/workflows/${id}/duplicate`), 201);
    const names = await Promise.all(
      [String(first.workflow_id), second.workflow_id].map(async (copy) =>
        client.ok<{ name: string; steps: unknown[] }>(await client.call('GET', `/workflows/${copy}`)),
      ),
    );
    expect(names.map((copy) => [copy.name, copy.steps.length])).toEqual([
      ['Shapes: twin (imported)', 1],
      ['Shapes: twin (imported) (2)', 1],
    ]);
    const missing = await client.call('POST', '/workflows/wf_nope/duplicate');
    expect([missing.status, errorOf(missing)]).toEqual([404, 'NOT_FOUND']);
  });

  it('starts, lists, details, cancels executions and reports per-workflow stats', async () => {
    const { id } = await create({
      name: 'Shapes: runs',
      allow_parallel_execution: false,
      steps: [toolStep('wait', 'http.request', { url: `${web.url}/slow?ms=5000` })],
    });
    const queued = client.ok<Record<string, unknown>>(
      await client.call('POST', `/workflows/${id}/executions`, { inputs: {}, triggered_by: 'script' }),
      202,
    );
    expectShape(queued, { execution_id: 'string', status: 'string', message: 'string' }, 'start');
    expect(queued.status).toBe('queued');
    const executionId = String(queued.execution_id);
    const busy = await client.call('POST', `/workflows/${id}/executions`, {});
    expect([busy.status, errorOf(busy)]).toEqual([409, 'CONFLICT']);

    const running = await client.eventually(async () => {
      const detail = client.ok<Record<string, unknown>>(
        await client.call('GET', `/workflows/${id}/executions/${executionId}`),
      );
      return detail.current_step_id === 'wait' ? detail : undefined;
    }, 'the step to be running');
    expectShape(running, { ...executionShape, step_executions: 'array' }, 'execution detail');
    expect(running).toMatchObject({ triggered_by: 'script', status: 'running' });
    const [stepRun] = running.step_executions as Record<string, unknown>[];
    expectShape(stepRun, stepExecutionShape, 'step_executions[0]');
    expect(stepRun).toMatchObject({ execution_id: executionId, step_id: 'wait', status: 'running' });

    const cancelled = client.ok(await client.call('POST', `/workflows/${id}/executions/${executionId}/cancel`));
    expect(cancelled).toMatchObject({ success: true, execution_id: executionId, status: 'cancelled' });
    expectShape(cancelled, { message: 'string' }, 'cancel');
    const terminal = await client.call('POST', `/workflows/${id}/executions/${executionId}/cancel`);
    expect([terminal.status, errorOf(terminal)]).toEqual([400, 'VALIDATION_ERROR']);

    const page = client.ok<{ data: Record<string, unknown>[]; pagination: object }>(
      await client.call('GET', `/workflows/${id}/executions?status=cancelled&page=1&page_size=5`),
    );
    expect(page.data.map((execution) => execution.id)).toEqual([executionId]);
    expectShape(page.data[0], executionShape, 'GET executions item');
    expect(page.data[0]).toMatchObject({ triggered_by: 'script', error_message: expect.any(String) });
    for (const path of [`/workflows/${id}/executions?status=pending`, '/workflows/executions?status=pending']) {
      const pending = client.ok<{ data: { status: string }[] }>(await client.call('GET', path));
      expect(
        pending.data.filter((execution) => execution.status !== 'queued'),
        path,
      ).toEqual([]);
    }
    expect((await client.call('GET', `/workflows/${id}/executions?status=stuck`)).status).toBe(422);

    const other = await create({ name: 'Shapes: other' });
    expect((await client.call('GET', `/workflows/${other.id}/executions/${executionId}`)).status).toBe(404);
    expect((await client.call('POST', `/workflows/${other.id}/executions/${executionId}/cancel`)).status).toBe(404);

    const fast = await create({
      name: 'Shapes: fast',
      steps: [toolStep('one', 'data.merge', { items: [{ a: 1 }] })],
    });
    const done = await client.runToEnd(fast.id);
    expect(done.status).toBe('completed');
    expect(client.ok(await client.call('GET', `/workflows/${fast.id}`))).toMatchObject({
      last_executed_at: expect.any(String),
    });
    const stats = client.ok<Record<string, unknown>>(await client.call('GET', `/workflows/${fast.id}/stats`));
    expectShape(
      stats,
      {
        workflow_id: 'string',
        total_executions: 'integer',
        successful_executions: 'integer',
        failed_executions: 'integer',
        cancelled_executions: 'integer',
        success_rate: 'number',
        avg_duration_ms: 'integer',
        min_duration_ms: 'integer?',
        max_duration_ms: 'integer?',
        last_execution_at: 'string?',
        last_success_at: 'string?',
        last_failure_at: 'string?',
        updated_at: 'string',
      },
      'GET /workflows/{id}/stats',
    );
    expect(stats).toMatchObject({
      workflow_id: fast.id,
      total_executions: 1,
      successful_executions: 1,
      success_rate: 1,
      last_success_at: expect.any(String),
      last_failure_at: null,
    });
    const missing = await client.call('GET', '/workflows/wf_nope/stats');
    expect([missing.status, errorOf(missing)]).toEqual([404, 'NOT_FOUND']);

    const inactive = await create({ name: 'Shapes: off', is_active: false });
    const refused = await client.call('POST', `/workflows/${inactive.id}/executions`, {});
    expect([refused.status, errorOf(refused)]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await client.call('POST', '/workflows/wf_nope/executions', {})).status).toBe(404);
  });
});
