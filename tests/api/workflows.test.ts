import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutomationServer, toolStep, type automationClient, type Execution } from '../support/automation.ts';
import type { LocalWeb } from '../support/local-web.ts';
import type { TestServer } from '../support/server.ts';
import { isoPattern, validationIssuesOf, type PageOf } from '../support/api-assertions.ts';

interface Workflow {
  id: string;
  name: string;
  version: string;
  is_active: boolean;
  is_system: boolean;
  step_count: number;
  steps: { id: string; step_number: number; depends_on: string[] }[];
}

describe('workflows: definitions, steps, validation and the engine', () => {
  let server: TestServer;
  let web: LocalWeb;
  let db: Knex;
  let client: ReturnType<typeof automationClient>;
  const count = async (table: string) => Number(((await db(table).count({ n: '*' })) as { n: number }[])[0].n);

  beforeAll(async () => {
    ({ server, web, db, client } = await startAutomationServer());
  });

  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });

  describe('definitions', () => {
    it('creates, reads, lists, updates and deletes a workflow with its steps', async () => {
      const created = await client.createWorkflow({
        name: 'Greeter',
        description: 'says hello',
        tags: ['demo'],
        input_schema: { type: 'object', properties: { who: { type: 'string' } } },
        steps: [toolStep('pick', 'data.extract', { data: { greeting: 'hello {{inputs.who}}' }, path: 'greeting' })],
      });
      const detail = client.ok<Workflow & Record<string, unknown>>(
        await client.call('GET', `/workflows/${created.id}`),
      );
      expect(detail).toMatchObject({
        name: 'Greeter',
        description: 'says hello',
        category: 'general',
        is_system: false,
        is_active: true,
        allow_parallel_execution: true,
        timeout_seconds: 3600,
        max_retries: 3,
        tags: ['demo'],
        version: '1',
        step_count: 1,
      });
      expect(detail.created_at).toMatch(isoPattern);
      expect(detail.steps[0]).toMatchObject({
        id: 'pick',
        workflow_id: created.id,
        step_number: 1,
        tool_type: 'system_tool',
        depends_on: [],
        retry_on_failure: false,
        condition: null,
      });

      const listed = client.ok<PageOf<Workflow>>(await client.call('GET', '/workflows?search=Greet&page_size=1'));
      expect(listed.data.map((workflow) => workflow.id)).toEqual([created.id]);
      expect(listed.pagination).toMatchObject({ total: 1, page_size: 1 });
      const system = client.ok<PageOf<Workflow>>(await client.call('GET', '/workflows?is_system=true'));
      expect(system.data.map((workflow) => workflow.id)).toEqual(['system_workflow_generate_embeddings_v1']);

      const patched = client.ok<Workflow>(
        await client.call('PATCH', `/workflows/${created.id}`, { name: 'Greeter 2', is_active: false }),
      );
      expect(patched).toMatchObject({ name: 'Greeter 2', is_active: false, version: '2' });
      expect((await client.call('POST', `/workflows/${created.id}/executions`, { inputs: {} })).status).toBe(400);

      expect((await client.call('DELETE', `/workflows/${created.id}`)).status).toBe(204);
      expect((await client.call('GET', `/workflows/${created.id}`)).status).toBe(404);
      expect(await db('workflow_steps').where({ workflow_id: created.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    });

    it('keeps the system workflow: only is_active changes, no delete', async () => {
      const id = 'system_workflow_generate_embeddings_v1';
      expect((await client.call('PATCH', `/workflows/${id}`, { name: 'Mine' })).status).toBe(400);
      expect((await client.call('DELETE', `/workflows/${id}`)).status).toBe(400);
      expect(
        (await client.call('POST', `/workflows/${id}/steps`, toolStep('extra', 'data.merge', { items: [] }))).status,
      ).toBe(400);
      expect(client.ok<Workflow>(await client.call('PATCH', `/workflows/${id}`, { is_active: false })).is_active).toBe(
        false,
      );
      expect(client.ok<Workflow>(await client.call('PATCH', `/workflows/${id}`, { is_active: true })).is_active).toBe(
        true,
      );
    });

    it('adds, orders, updates and deletes steps', async () => {
      const { id } = await client.createWorkflow({ name: 'Steps' });
      const first = client.ok<{ id: string; step_number: number }>(
        await client.call('POST', `/workflows/${id}/steps`, toolStep('first', 'data.merge', { items: [{ a: 1 }] })),
        201,
      );
      expect(first.step_number).toBe(1);
      const second = client.ok<{ id: string; step_number: number }>(
        await client.call('POST', `/workflows/${id}/steps`, {
          name: 'Second',
          tool_type: 'system_tool',
          tool_id: 'data.extract',
          configuration: { data: '{{steps.first.output.result}}', path: 'a' },
          depends_on: ['first'],
        }),
        201,
      );
      expect(second).toMatchObject({ id: 'step_2', step_number: 2 });
      client.ok(
        await client.call('POST', `/workflows/${id}/steps`, {
          ...toolStep('zero', 'data.merge', { items: [[1]] }),
          step_number: 0,
        }),
        422,
      );
      client.ok(
        await client.call('POST', `/workflows/${id}/steps`, toolStep('first', 'data.merge', { items: [[1]] })),
        409,
      );

      const moved = client.ok<{ step_number: number }>(
        await client.call('PATCH', `/workflows/${id}/steps/first`, { step_number: 5, name: 'Renamed' }),
      );
      expect(moved).toMatchObject({ step_number: 5, name: 'Renamed' });
      const steps = client.ok<{ id: string }[]>(await client.call('GET', `/workflows/${id}/steps`));
      expect(steps.map((step) => step.id)).toEqual(['step_2', 'first']);
      expect(client.ok<Workflow>(await client.call('GET', `/workflows/${id}`)).version).toBe('4');

      // step_2 reads first's output: first cannot go while step_2 needs it.
      const refused = validationIssuesOf(await client.call('DELETE', `/workflows/${id}/steps/first`));
      expect(refused[0].msg).toContain("step 'step_2'");
      expect((await client.call('DELETE', `/workflows/${id}/steps/step_2`)).status).toBe(204);
      expect((await client.call('DELETE', `/workflows/${id}/steps/first`)).status).toBe(204);
      expect(client.ok<unknown[]>(await client.call('GET', `/workflows/${id}/steps`))).toEqual([]);
    });

    it('refuses an unknown tool, a cycle and bad references with 422 naming the step, storing nothing', async () => {
      const before = await count('workflows');
      const unknownTool = validationIssuesOf(
        await client.call('POST', '/workflows', { name: 'Bad', steps: [toolStep('fetch', 'web.scrape', {})] }),
      );
      expect(unknownTool[0]).toMatchObject({ loc: ['steps', 'fetch', 'tool_id'] });
      expect(unknownTool[0].msg).toContain("step 'fetch'");
      expect(unknownTool[0].msg).toContain("unknown system tool 'web.scrape'");
      const unknownUserTool = validationIssuesOf(
        await client.call('POST', '/workflows', {
          name: 'Bad',
          steps: [{ id: 'u', name: 'u', tool_type: 'user_tool', tool_id: 'tool_nope' }],
        }),
      );
      expect(unknownUserTool[0].msg).toContain("unknown user tool 'tool_nope'");

      const cycle = validationIssuesOf(
        await client.call('POST', '/workflows', {
          name: 'Cycle',
          steps: [
            toolStep('a', 'data.merge', { items: [{}] }, { depends_on: ['c'] }),
            toolStep('b', 'data.merge', { items: [{}] }, { depends_on: ['a'] }),
            toolStep('c', 'data.merge', { items: [{}] }, { depends_on: ['b'] }),
          ],
        }),
      );
      expect(cycle[0].msg).toMatch(/step 'a' .*cycle: a → c → b → a/);

      // A step reading a result that may not exist yet is told which reference and, in words, what to change; the
      // issue keeps the envelope's shape (loc, msg, type and nothing else).
      const racing = validationIssuesOf(
        await client.call('POST', '/workflows', {
          name: 'Race',
          steps: [
            toolStep('x', 'data.extract', { data: '{{steps.y.output}}' }),
            toolStep('y', 'data.merge', { items: [{}] }),
          ],
        }),
      );
      expect(racing[0]).toEqual({
        loc: ['steps', 'x', 'configuration'],
        msg:
          "step 'x' (x): the reference {{steps.y.output}} uses the result of step 'y' (y), which may not have run " +
          "yet: add 'y' to Runs after (depends_on)",
        type: 'value_error',
      });

      const cases: [Record<string, unknown>[], string][] = [
        [
          [toolStep('x', 'data.extract', { data: '{{steps.ghost.output}}' })],
          "the reference {{steps.ghost.output}} uses the result of a step 'ghost' that this workflow does not have",
        ],
        [
          [toolStep('x', 'data.extract', { data: '{{inputs.nothere}}' })],
          "the reference {{inputs.nothere}} uses the input 'nothere', which the workflow's input_schema does not declare",
        ],
        [
          [toolStep('x', 'data.extract', { data: '{{secrets.key}}' })],
          'the reference {{secrets.key}} must start with inputs or steps',
        ],
        [
          [
            toolStep('y', 'data.merge', { items: [{}] }),
            toolStep('x', 'data.extract', { data: '{{steps.y.outcome}}' }, { depends_on: ['y'] }),
          ],
          "the reference {{steps.y.outcome}} reads 'outcome'; a step's result has output, status, error",
        ],
        [
          [toolStep('x', 'data.extract', { data: {} }, { condition: '{{steps.x.status}}' })],
          "reads this step's own result",
        ],
        [[toolStep('x', 'data.extract', { data: {} }, { depends_on: ['x'] })], 'cannot depend on itself'],
        [[toolStep('x', 'data.extract', { data: {} }, { depends_on: ['nobody'] })], "depends on unknown step 'nobody'"],
      ];
      for (const [steps, message] of cases) {
        const issues = validationIssuesOf(
          await client.call('POST', '/workflows', {
            name: 'Refs',
            input_schema: { type: 'object', properties: { known: {} } },
            steps,
          }),
        );
        expect(issues.map((issue) => issue.msg).join('\n')).toContain(message);
        expect(issues[0].msg).toMatch(/^step '(x|y)'/);
      }
      expect(
        validationIssuesOf(
          await client.call('POST', '/workflows', { name: 'x', input_schema: { type: 'nonsense' } }),
        )[0].loc,
      ).toEqual(['input_schema']);
      expect(await count('workflows')).toBe(before);
    });

    it('answers 404 for unknown workflows, steps and executions', async () => {
      const { id } = await client.createWorkflow({ name: 'Four-oh-four' });
      for (const [method, path] of [
        ['GET', '/workflows/wf_nope'],
        ['PATCH', '/workflows/wf_nope'],
        ['DELETE', '/workflows/wf_nope'],
        ['GET', '/workflows/wf_nope/steps'],
        ['POST', '/workflows/wf_nope/steps'],
        ['GET', '/workflows/wf_nope/executions'],
        ['POST', '/workflows/wf_nope/executions'],
        ['GET', '/workflows/wf_nope/export'],
        ['GET', '/workflows/wf_nope/triggers'],
        ['GET', '/workflows/executions/exec_nope'],
        ['POST', '/workflows/executions/exec_nope/cancel'],
        ['PATCH', `/workflows/${id}/steps/nope`],
        ['DELETE', `/workflows/${id}/steps/nope`],
      ] as const) {
        const body =
          method === 'POST' && path.endsWith('/steps')
            ? toolStep('s', 'data.merge', { items: [{}] })
            : method === 'PATCH'
              ? { name: 'n' }
              : method === 'POST'
                ? {}
                : undefined;
        const result = await client.call(method, path, body);
        expect(result.status, `${method} ${path}: ${result.text}`).toBe(404);
        expect((result.body as { error: string }).error).toBe('NOT_FOUND');
      }
    });
  });

  describe('executions', () => {
    it('runs a fan-out and an AND-join, passing typed values between steps', async () => {
      const { id } = await client.createWorkflow({
        name: 'Diamond',
        input_schema: {
          type: 'object',
          required: ['person'],
          properties: { person: { type: 'object' }, bonus: { type: 'integer' } },
        },
        steps: [
          toolStep('start', 'data.merge', {
            items: [
              '{{inputs.person}}',
              { bonus: '{{inputs.bonus}}', note: 'bonus={{inputs.bonus}} for {{inputs.person}}' },
            ],
          }),
          toolStep(
            'name',
            'data.extract',
            { data: '{{steps.start.output.result}}', path: 'name' },
            { depends_on: ['start'] },
          ),
          toolStep(
            'skills',
            'data.extract',
            { data: '{{steps.start.output.result}}', path: 'skills' },
            { depends_on: ['start'] },
          ),
          toolStep(
            'join',
            'data.merge',
            {
              items: [
                {
                  who: '{{steps.name.output.value}}',
                  first_skill: '{{steps.skills.output.value.0}}',
                  skills: '{{steps.skills.output.value}}',
                  missing: '{{steps.name.output.nothing}}',
                },
              ],
            },
            { depends_on: ['name', 'skills'] },
          ),
        ],
      });
      const execution = await client.runToEnd(id, { person: { name: 'Ada', skills: ['math', 'poetry'] }, bonus: 7 });
      expect(execution.status, execution.error ?? '').toBe('completed');
      const step = (stepId: string) => execution.steps.find((run) => run.step_id === stepId)!;
      expect(Object.keys(step('start')).sort()).toEqual([
        'attempts',
        'completed_at',
        'duration_ms',
        'error',
        'input',
        'name',
        'output',
        'started_at',
        'status',
        'step_id',
        'step_number',
        'tool_id',
        'tool_type',
      ]);
      expect(step('start').output).toEqual({
        result: {
          name: 'Ada',
          skills: ['math', 'poetry'],
          bonus: 7,
          note: 'bonus=7 for {"name":"Ada","skills":["math","poetry"]}',
        },
      });
      expect(step('join').input).toEqual({
        items: [{ who: 'Ada', first_skill: 'math', skills: ['math', 'poetry'], missing: null }],
        strategy: 'shallow',
      });
      expect(execution.outputs).toEqual({
        join: { result: { who: 'Ada', first_skill: 'math', skills: ['math', 'poetry'], missing: null } },
      });
      // The join started only after both branches finished; both branches only after the start.
      for (const branch of ['name', 'skills']) {
        expect(step(branch).started_at! >= step('start').completed_at!).toBe(true);
        expect(step('join').started_at! >= step(branch).completed_at!).toBe(true);
      }
      expect(
        execution.steps.every((run) => run.status === 'completed' && run.attempts === 1 && run.duration_ms !== null),
      ).toBe(true);
      expect(execution.duration_ms).toBeGreaterThanOrEqual(0);

      const listed = client.ok<PageOf<Execution>>(
        await client.call('GET', `/workflows/${id}/executions?status=completed`),
      );
      expect(listed.data.map((item) => item.id)).toEqual([execution.id]);
      expect(
        client.ok<PageOf<Execution>>(await client.call('GET', `/workflows/${id}/executions?status=failed`)).pagination
          .total,
      ).toBe(0);
    });

    it('checks inputs against the input schema before queueing', async () => {
      const { id } = await client.createWorkflow({
        name: 'Typed',
        input_schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
      });
      const issues = validationIssuesOf(
        await client.call('POST', `/workflows/${id}/executions`, { inputs: { n: 'five' } }),
      );
      expect(issues[0].msg).toContain('n: must be integer');
      expect(validationIssuesOf(await client.call('POST', `/workflows/${id}/executions`, {}))[0].msg).toContain(
        "must have required property 'n'",
      );
      expect(await db('workflow_executions').where({ workflow_id: id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    });

    it('stops at a failing step, or carries on past it with continue_on_error', async () => {
      const steps = (continueOnError: boolean) => [
        toolStep('bad', 'data.merge', { items: [{ a: 1 }, [2]] }, { continue_on_error: continueOnError }),
        toolStep(
          'after',
          'data.extract',
          { data: { error: '{{steps.bad.error}}', status: '{{steps.bad.status}}' }, path: 'status' },
          { depends_on: ['bad'] },
        ),
        toolStep('independent', 'data.merge', { items: [[1], [2]] }),
      ];
      const stopped = await client.runToEnd((await client.createWorkflow({ name: 'Stops', steps: steps(false) })).id);
      expect(stopped.status).toBe('failed');
      expect(stopped.error).toBe("step 'bad' (bad) failed: items must be all objects or all arrays");
      const byId = (execution: Execution) => Object.fromEntries(execution.steps.map((run) => [run.step_id, run]));
      expect(byId(stopped).bad).toMatchObject({
        status: 'failed',
        error: 'items must be all objects or all arrays',
        attempts: 1,
      });
      expect(byId(stopped).after).toMatchObject({ status: 'skipped', error: 'not run: an earlier step failed' });

      const carried = await client.runToEnd(
        (await client.createWorkflow({ name: 'Carries on', steps: steps(true) })).id,
      );
      expect(carried.status).toBe('completed');
      expect(carried.error).toBeNull();
      expect(byId(carried).bad.status).toBe('failed');
      expect(byId(carried).after).toMatchObject({ status: 'completed', output: { value: 'failed' } });
      expect(byId(carried).independent).toMatchObject({ status: 'completed', output: { result: [1, 2] } });
    });

    it('retries a failing step with backoff until it succeeds', async () => {
      const { id } = await client.createWorkflow({
        name: 'Flaky',
        max_retries: 2,
        steps: [
          toolStep('call', 'http.request', { url: `${web.url}/flaky?key=retry&fail=1` }, { retry_on_failure: true }),
        ],
      });
      const execution = await client.runToEnd(id);
      expect(execution.status, execution.error ?? '').toBe('completed');
      expect(execution.steps[0]).toMatchObject({
        status: 'completed',
        attempts: 2,
        output: { status: 200, body: { attempt: 2 } },
      });
      // The retry waited out the first backoff delay (1 s).
      expect(execution.steps[0].duration_ms).toBeGreaterThanOrEqual(1000);
      expect(
        client.ok<{ total_calls: number; failed_calls: number }>(
          await client.call('GET', '/tools/stats/system/http.request'),
        ),
      ).toMatchObject({ failed_calls: 1 });

      const { id: noRetry } = await client.createWorkflow({
        name: 'Flaky once',
        steps: [toolStep('call', 'http.request', { url: `${web.url}/flaky?key=once&fail=1` })],
      });
      const failed = await client.runToEnd(noRetry);
      expect(failed.steps[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(failed.steps[0].error).toContain('HTTP 503');
    });

    it('evaluates conditions: false skips the step, comparisons and branches', async () => {
      const { id } = await client.createWorkflow({
        name: 'Branches',
        input_schema: { type: 'object', properties: { score: { type: 'number' } } },
        steps: [
          toolStep('check', 'logic.conditional', {
            value: '{{inputs.score}}',
            operator: 'greater_than',
            compare_to: 50,
          }),
          toolStep(
            'pass',
            'data.merge',
            { items: [{ verdict: 'pass' }] },
            { depends_on: ['check'], condition: '{{steps.check.output.result}}' },
          ),
          toolStep(
            'fail',
            'data.merge',
            { items: [{ verdict: 'fail' }] },
            {
              depends_on: ['check'],
              condition: { value: '{{steps.check.output.branch}}', operator: 'equals', compare_to: 'false' },
            },
          ),
        ],
      });
      const high = await client.runToEnd(id, { score: 80 });
      expect(Object.fromEntries(high.steps.map((run) => [run.step_id, run.status]))).toEqual({
        check: 'completed',
        pass: 'completed',
        fail: 'skipped',
      });
      expect(high.outputs).toEqual({ pass: { result: { verdict: 'pass' } } });
      const low = await client.runToEnd(id, { score: 20 });
      expect(Object.fromEntries(low.steps.map((run) => [run.step_id, run.status]))).toEqual({
        check: 'completed',
        pass: 'skipped',
        fail: 'completed',
      });
    });

    it('runs nested workflows with their own execution records, and stops runaway nesting', async () => {
      const child = await client.createWorkflow({
        name: 'Child',
        steps: [toolStep('double', 'data.merge', { items: ['{{inputs.list}}', '{{inputs.list}}'] })],
      });
      const parent = await client.createWorkflow({
        name: 'Parent',
        steps: [
          { id: 'nested', name: 'nested', tool_type: 'workflow', tool_id: child.id, configuration: { list: [1, 2] } },
          toolStep('loop', 'logic.loop', { items: ['a', 'b'], workflow_id: child.id, item_input: 'list' }),
        ],
      });
      // logic.loop passes each item as `list`: a string, which data.merge refuses, so loop over lists instead.
      client.ok(
        await client.call('PATCH', `/workflows/${parent.id}/steps/loop`, {
          configuration: { items: [[1], [2, 3]], workflow_id: child.id, item_input: 'list' },
        }),
      );
      const execution = await client.runToEnd(parent.id);
      expect(execution.status, execution.error ?? '').toBe('completed');
      expect(execution.outputs).toEqual({
        nested: { double: { result: [1, 2, 1, 2] } },
        loop: { results: [{ double: { result: [1, 1] } }, { double: { result: [2, 3, 2, 3] } }], count: 2 },
      });
      expect(execution.child_execution_ids).toHaveLength(3);
      const nested = client.ok<Execution>(
        await client.call('GET', `/workflows/executions/${execution.child_execution_ids[0]}`),
      );
      expect(nested).toMatchObject({
        workflow_id: child.id,
        parent_execution_id: execution.id,
        status: 'completed',
        inputs: { list: [1, 2] },
      });
      // Nested runs do not count as executions of their own in the stats.
      const stats = client.ok<{ total_executions: number }>(await client.call('GET', '/workflows/stats'));
      expect(stats.total_executions).toBe(
        await db('workflow_executions')
          .whereNull('parent_execution_id')
          .count({ n: '*' })
          .then((rows) => Number((rows as { n: number }[])[0].n)),
      );

      // A runs B runs A …: refused at the depth limit instead of looping forever.
      const a = await client.createWorkflow({ name: 'A' });
      const b = await client.createWorkflow({
        name: 'B',
        steps: [{ id: 'call_a', name: 'call a', tool_type: 'workflow', tool_id: a.id }],
      });
      client.ok(
        await client.call('POST', `/workflows/${a.id}/steps`, {
          id: 'call_b',
          name: 'call b',
          tool_type: 'workflow',
          tool_id: b.id,
        }),
        201,
      );
      const runaway = await client.runToEnd(a.id);
      expect(runaway.status).toBe('failed');
      expect(runaway.error).toContain('at most 10 levels deep');
      expect(await db('workflow_executions').where({ workflow_id: a.id }).max({ depth: 'depth' })).toEqual([
        { depth: 10 },
      ]);
      expect(
        validationIssuesOf(
          await client.call('POST', `/workflows/${child.id}/steps`, {
            id: 'self',
            name: 'self',
            tool_type: 'workflow',
            tool_id: child.id,
          }),
        )[0].msg,
      ).toContain('cannot run itself');
      expect((await client.call('DELETE', `/workflows/${child.id}`)).status).toBe(409);
    });

    it('times a step out, and cancels a running execution cooperatively', async () => {
      const timed = await client.createWorkflow({
        name: 'Slow step',
        steps: [toolStep('wait', 'http.request', { url: `${web.url}/slow?ms=5000` }, { timeout_seconds: 1 })],
      });
      const timedOut = await client.runToEnd(timed.id);
      expect(timedOut.status).toBe('failed');
      expect(timedOut.steps[0].error).toBe('the step took longer than its 1 s timeout');

      const slow = await client.createWorkflow({
        name: 'Cancel me',
        steps: [
          toolStep('wait', 'http.request', { url: `${web.url}/slow?ms=20000` }),
          toolStep('later', 'data.merge', { items: [{}] }, { depends_on: ['wait'] }),
        ],
      });
      const queued = client.ok<{ execution_id: string }>(
        await client.call('POST', `/workflows/${slow.id}/executions`, {}),
        202,
      );
      await client.eventually(
        async () =>
          (await db('workflow_step_runs')
            .where({ execution_id: queued.execution_id, step_id: 'wait', status: 'running' })
            .first())
            ? true
            : undefined,
        'the slow step to start',
      );
      const abandonedBefore = web.abandoned;
      const cancelled = client.ok<Execution>(
        await client.call('POST', `/workflows/executions/${queued.execution_id}/cancel`),
      );
      expect(cancelled.status).toBe('cancelled');
      const settled = await client.eventually(async () => {
        const execution = client.ok<Execution>(
          await client.call('GET', `/workflows/executions/${queued.execution_id}`),
        );
        // The engine records the running step's end, then marks the steps that never ran.
        const statusOf = (stepId: string) => execution.steps.find((run) => run.step_id === stepId)?.status;
        return statusOf('wait') === 'cancelled' && statusOf('later') !== undefined ? execution : undefined;
      }, 'the running step to stop');
      expect(settled.status).toBe('cancelled');
      expect(settled.steps.find((run) => run.step_id === 'later')?.status).toBe('cancelled');
      await client.eventually(
        async () => (web.abandoned > abandonedBefore ? true : undefined),
        'the HTTP call to be dropped',
      );
      expect((await client.call('POST', `/workflows/executions/${queued.execution_id}/cancel`)).status).toBe(400);
    });

    it('refuses a second run while one is active when parallel execution is off, and runs fired ones one at a time', async () => {
      const { id } = await client.createWorkflow({
        name: 'One at a time',
        allow_parallel_execution: false,
        steps: [toolStep('wait', 'http.request', { url: `${web.url}/slow?ms=400` })],
      });
      const first = client.ok<{ execution_id: string }>(
        await client.call('POST', `/workflows/${id}/executions`, {}),
        202,
      );
      const refused = await client.call('POST', `/workflows/${id}/executions`, {});
      expect(refused.status, refused.text).toBe(409);
      expect((refused.body as { error: string }).error).toBe('CONFLICT');
      expect((await client.waitForExecution(first.execution_id)).status).toBe('completed');

      const trigger = client.ok<{ id: string }>(
        await client.call('POST', '/triggers', {
          name: 'Hook',
          event_source: 'hook.one',
          filters: {},
          workflow_id: id,
        }),
        201,
      );
      const fire = async () =>
        client.ok<{ execution_id: string }>(await client.call('POST', `/triggers/${trigger.id}/fire`, {}), 202)
          .execution_id;
      const [a, b] = [await fire(), await fire()];
      const [runA, runB] = [await client.waitForExecution(a), await client.waitForExecution(b)];
      expect([runA.status, runB.status]).toEqual(['completed', 'completed']);
      const [earlier, later] = runA.started_at! <= runB.started_at! ? [runA, runB] : [runB, runA];
      expect(later.started_at! >= earlier.completed_at!).toBe(true);
    });

    it('exports a document and imports it as a new workflow that runs the same; takes rhizome.workflow definitions too', async () => {
      const original = await client.createWorkflow({
        name: 'Portable',
        input_schema: { type: 'object', properties: { x: { type: 'integer' } } },
        steps: [
          toolStep('one', 'data.merge', { items: [{ x: '{{inputs.x}}' }] }),
          toolStep('two', 'data.extract', { data: '{{steps.one.output.result}}', path: 'x' }, { depends_on: ['one'] }),
        ],
      });
      const exported = client.ok<{
        data: { version: string; workflow: Record<string, unknown>; steps: Record<string, unknown>[] };
        message: string;
      }>(await client.call('GET', `/workflows/${original.id}/export`));
      expect(exported.message).toBe('Workflow exported successfully');
      expect(exported.data).toMatchObject({
        version: '1.0',
        workflow: { name: 'Portable' },
        steps: [{ id: 'one' }, { id: 'two', depends_on: ['one'] }],
      });
      expect(exported.data.workflow).not.toHaveProperty('id');
      const imported = client.ok<Workflow & { workflow_id: string; was_existing: boolean }>(
        await client.call('POST', '/workflows/import', { workflow_data: exported.data, on_duplicate: 'rename' }),
        201,
      );
      expect(imported).toMatchObject({ name: 'Portable (imported)', was_existing: false });
      expect(imported.workflow_id).toBe(imported.id);
      expect(imported.id).not.toBe(original.id);
      expect(imported.steps.map((step) => [step.id, step.depends_on])).toEqual([
        ['one', []],
        ['two', ['one']],
      ]);
      expect((await client.runToEnd(imported.id, { x: 42 })).outputs).toEqual({ two: { value: 42 } });

      const definition = {
        format: 'rhizome.workflow',
        version: 1,
        workflow: {
          id: 'wf_imported_here',
          name: 'Portable definition',
          input_schema: exported.data.workflow.input_schema,
        },
        steps: exported.data.steps,
      };
      const fresh = client.ok<Workflow & { workflow_id: string }>(
        await client.call('POST', '/workflows/import', definition),
        201,
      );
      expect([fresh.id, fresh.workflow_id]).toEqual(['wf_imported_here', 'wf_imported_here']);
      const bad = validationIssuesOf(
        await client.call('POST', '/workflows/import', { ...definition, steps: [toolStep('x', 'no.such', {})] }),
      );
      expect(bad[0].msg).toContain("unknown system tool 'no.such'");
      expect(
        validationIssuesOf(await client.call('POST', '/workflows/import', { format: 'other' })).length,
      ).toBeGreaterThan(0);
    });

    it('reports workflow and execution statistics, also on the dashboard', async () => {
      const stats = client.ok<Record<string, number>>(await client.call('GET', '/workflows/stats'));
      const workflows = await count('workflows');
      const inactive = Number(
        ((await db('workflows').where({ is_active: false }).count({ n: '*' })) as { n: number }[])[0].n,
      );
      expect(stats).toMatchObject({
        total_workflows: workflows,
        active_workflows: workflows - inactive,
        inactive_workflows: inactive,
      });
      expect(stats.successful_executions).toBeGreaterThan(0);
      expect(stats.failed_executions).toBeGreaterThan(0);
      expect(stats.cancelled_executions).toBeGreaterThan(0);
      const finished = stats.successful_executions + stats.failed_executions + stats.cancelled_executions;
      expect(stats.success_rate).toBeCloseTo(stats.successful_executions / finished, 3);
      const dashboard = client.ok<{ counts: { workflows: number }; workflows: Record<string, number> }>(
        await client.call('GET', '/system/dashboard'),
      );
      expect(dashboard.counts.workflows).toBe(workflows);
      const { pending_executions: _pending, average_duration_ms: _average, ...expected } = stats;
      expect(dashboard.workflows).toEqual(expected);
    });
  });
});
