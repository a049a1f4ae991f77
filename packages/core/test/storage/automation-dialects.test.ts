import { defaultSettings } from '@rhizome/contracts/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecution } from '../../src/automation/engine/run-execution.ts';
import { nodeExists, nodeVectorIdentity, templateSummaries } from '../../src/automation/read-model.ts';
import { resetAutomation } from '../../src/automation/reset.ts';
import { autoEmbedTriggerId, seedAutomation, setSystemTriggersEnabled } from '../../src/automation/seeds.ts';
import { AutomationService } from '../../src/automation/service.ts';
import { armedTriggers } from '../../src/automation/triggers/repo.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const window = { offset: 0, limit: 50 };

/** Workflows, their steps, triggers, executions run by the engine, tool statistics and the reset, alike on both dialects. */
describe.each(dialects)('automation on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  let service: AutomationService;
  const queued: string[] = [];

  beforeAll(async () => {
    db = await databases.open('automation');
    // The process-wide part reduced to what the service calls: the runs it queues (run below by the engine).
    const automation = {
      run: async (data: { execution_id: string }) => {
        queued.push(data.execution_id);
        return { task_id: `task_${queued.length}` } as never;
      },
      triggersChanged: async () => undefined,
    };
    service = new AutomationService({ db, database: 'automation', automation, cancelTask: async () => undefined });
  }, 120_000);
  afterAll(() => databases.close());

  /** Runs a queued execution to its end: its steps use data tools only, so no model is reached. */
  const runQueued = (executionId: string) =>
    runExecution(
      {
        db,
        database: 'automation',
        settings: defaultSettings(),
        llm: undefined as never,
        embeddings: undefined as never,
        logger: { info: () => undefined, warning: () => undefined, error: () => undefined },
      },
      executionId,
      new AbortController().signal,
    );

  it('seeds the system workflow and trigger once, and switches the system triggers only', async () => {
    await seedAutomation(db);
    await seedAutomation(db);
    expect((await service.listWorkflows({}, window)).total).toBe(1);
    expect((await service.listWorkflows({ isSystem: true }, window)).items[0]).toMatchObject({
      is_system: true,
      is_active: true,
      step_count: 1,
    });
    expect(await setSystemTriggersEnabled(db, false)).toBe(1);
    expect((await service.trigger(autoEmbedTriggerId)).enabled).toBe(false);
    expect(await armedTriggers(db)).toEqual([]);
    expect(await setSystemTriggersEnabled(db, true)).toBe(1);
    expect((await armedTriggers(db)).map((row) => row.id)).toEqual([autoEmbedTriggerId]);
  });

  it('creates, lists, searches and edits workflows and their steps', async () => {
    const merge = await service.createWorkflow({
      name: 'Merge Notes',
      category: 'data',
      input_schema: { type: 'object' },
      steps: [
        {
          id: 'first',
          name: 'Merge',
          tool_type: 'system_tool',
          tool_id: 'data.merge',
          configuration: { items: ['{{inputs.a}}', { b: 2 }] },
        },
        {
          id: 'second',
          name: 'Again',
          tool_type: 'system_tool',
          tool_id: 'data.merge',
          configuration: { items: ['{{steps.first.output.result}}', { c: 3 }] },
          depends_on: ['first'],
          continue_on_error: true,
        },
      ],
    } as never);
    await service.createWorkflow({ name: 'Quiet 100%_done', is_active: false });
    expect(merge).toMatchObject({ version: '1', step_count: 2, is_active: true });

    const names = async (filter: Parameters<AutomationService['listWorkflows']>[0]) =>
      (await service.listWorkflows(filter, window)).items.map((workflow) => workflow.name).sort();
    expect(await names({ search: 'merge' })).toEqual(['Merge Notes']);
    expect(await names({ search: 'NOTES' })).toEqual(['Merge Notes']);
    expect(await names({ search: '100%_' })).toEqual(['Quiet 100%_done']);
    expect(await names({ search: '0_%' })).toEqual([]);
    expect(await names({ isActive: false })).toEqual(['Quiet 100%_done']);
    expect(await names({ category: 'data', isSystem: false })).toEqual(['Merge Notes']);

    await service.reorderSteps(merge.id, ['second']);
    expect((await service.steps(merge.id)).map((step) => [step.id, step.step_number])).toEqual([
      ['second', 1],
      ['first', 2],
    ]);
    await service.updateStep(merge.id, 'second', { retry_on_failure: true });
    expect(await service.step(merge.id, 'second')).toMatchObject({ retry_on_failure: true, continue_on_error: true });
    const detail = await service.workflow(merge.id);
    expect(detail.version).toBe('3');
    expect(detail.last_executed_at).toBeNull();
  });

  it('runs executions through the engine and counts their outcomes', async () => {
    const merge = (await service.listWorkflows({ search: 'Merge Notes' }, window)).items[0];
    const started = await service.run(merge.id, { inputs: { a: { a: 1 } } });
    expect(started).toMatchObject({ status: 'queued', task_id: 'task_1' });
    expect(await runQueued(started.execution_id)).toEqual({
      status: 'completed',
      outputs: expect.objectContaining({ second: { result: { a: 1, b: 2, c: 3 } } }),
      error: null,
    });
    // A text is no object to merge: the first step fails for good, and with it the execution.
    const broken = await service.run(merge.id, { inputs: { a: 'text' } });
    expect((await runQueued(broken.execution_id)).status).toBe('failed');

    const detail = await service.execution(started.execution_id);
    expect(detail).toMatchObject({ status: 'completed', triggered_by: 'manual', current_step_id: null });
    // In step order, which the reordering made 'second' first.
    expect(detail.steps.map((step) => [step.step_id, step.status, step.attempts])).toEqual([
      ['second', 'completed', 1],
      ['first', 'completed', 1],
    ]);
    expect(detail.step_executions[1]).toMatchObject({ execution_id: started.execution_id, step_id: 'first' });
    expect(await service.execution(broken.execution_id)).toMatchObject({ status: 'failed', failed_step_id: 'first' });

    const listed = await service.executions({ workflowId: merge.id, status: 'completed' }, window);
    expect(listed.items.map((item) => item.id)).toEqual([started.execution_id]);
    expect(await service.workflowStats()).toMatchObject({
      total_workflows: 3,
      active_workflows: 2,
      inactive_workflows: 1,
      total_executions: 2,
      successful_executions: 1,
      failed_executions: 1,
      pending_executions: 0,
      success_rate: 0.5,
    });
    const stats = await service.workflowExecutionStats(merge.id);
    expect(stats).toMatchObject({ total_executions: 2, successful_executions: 1, failed_executions: 1 });
    expect(typeof stats.min_duration_ms).toBe('number');
    expect(stats.last_success_at).toBe(detail.created_at);
    expect((await service.workflow(merge.id)).last_executed_at).toBe(
      (await service.execution(broken.execution_id)).created_at,
    );

    const tool = await service.toolStats('system', 'data.merge');
    expect(tool).toMatchObject({ total_calls: 3, successful_calls: 2, failed_calls: 1 });
    expect(typeof tool.avg_execution_ms).toBe('number');
  });

  it('keeps triggers, fires them and counts what they started', async () => {
    const merge = (await service.listWorkflows({ search: 'Merge Notes' }, window)).items[0];
    const trigger = await service.createTrigger({
      name: 'On tagged',
      event_source: 'webhook',
      filters: { kind: 'note' },
      workflow_id: merge.id,
      priority: -1,
    });
    expect((await service.listTriggers({ enabled: true }, window)).items.map((item) => item.id)).toEqual([
      trigger.id,
      autoEmbedTriggerId,
    ]);
    expect(await service.fireTrigger(trigger.id, { kind: 'other' })).toMatchObject({ fired: false });
    const fired = await service.fireTrigger(trigger.id, { kind: 'note', a: { z: 0 } });
    await runQueued(fired.execution_id!);
    expect(await service.execution(fired.execution_id!)).toMatchObject({
      triggered_by: 'trigger',
      trigger_id: trigger.id,
      status: 'completed',
    });
    expect(await service.triggerStats(trigger.id)).toMatchObject({ total_executions: 1, successful_executions: 1 });
    await service.updateTrigger(trigger.id, { enabled: false });
    expect((await service.listTriggers({ enabled: false }, window)).total).toBe(1);
  });

  it('keeps user tools and reads the graph tables a step reads', async () => {
    const tool = await service.createUserTool({
      name: 'Merge twice',
      system_tool_id: 'data.merge',
      configuration: { strategy: 'deep' },
      is_active: false,
    } as never);
    expect((await service.listUserTools({ isActive: false }, window)).items.map((item) => item.id)).toEqual([tool.id]);
    expect((await service.listUserTools({ isActive: true }, window)).total).toBe(0);

    await db('graph_templates').insert([
      { id: 'person', name: 'Person', template_type: 'node', properties: '[]', created_at: at, updated_at: at },
      { id: 'knows', name: 'knows', template_type: 'edge', properties: '[]', created_at: at, updated_at: at },
    ]);
    await db('graph_nodes').insert({ id: 'ada', template_id: 'person', label: 'Ada', created_at: at, updated_at: at });
    await db('node_embeddings').insert({ node_id: 'ada', model: 'm', dimensions: 2, vector: Buffer.alloc(8) });
    expect([await nodeExists(db, 'ada'), await nodeExists(db, 'bob')]).toEqual([true, false]);
    expect(await nodeVectorIdentity(db, 'ada')).toEqual({ model: 'm', dimensions: 2 });
    expect((await templateSummaries(db, { templateType: 'edge', limit: 5 })).map((row) => row.id)).toEqual(['knows']);
  });

  it('resets to the seeded state and says what it deleted', async () => {
    expect(await resetAutomation(db)).toMatchObject({
      workflows_deleted: 3,
      workflow_executions_deleted: 3,
      user_tools_deleted: 1,
      triggers_deleted: 2,
      trigger_executions_deleted: 1,
      workflows_created: 1,
      triggers_created: 1,
    });
    expect(await db('workflow_step_runs').count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});
