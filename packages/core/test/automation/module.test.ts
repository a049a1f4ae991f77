import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationModule } from '../../src/automation/module.ts';
import { AutomationService } from '../../src/automation/service.ts';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';

describe('automation module: seeds, counts and a service that announces trigger changes', () => {
  let dir: string;
  let db: Db;
  const announced: string[] = [];
  let service: AutomationService;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'automation-module-'));
    db = openSqlite(path.join(dir, 'app.db'));
    await new Migrator(path.join(dir, 'backups')).apply(db);
    // The process-wide part is reduced to what the service calls: the runs it queues and the announcements.
    const automation = {
      run: () => Promise.reject(new Error('no queue in this test')),
      triggersChanged: async (database: string) => void announced.push(database),
    };
    service = new AutomationService({ db, database: 'notes', automation, cancelTask: async () => undefined });
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the system workflow and trigger once, however often it runs', async () => {
    for (let run = 0; run < 2; run++) for (const seed of automationModule.seeds ?? []) await seed(db, 'notes');
    expect(await automationModule.counts!.workflows(db)).toBe(1);
    const { items } = await service.listTriggers({}, { offset: 0, limit: 10 });
    expect(items.map((trigger) => trigger.id)).toEqual(['system_trigger_auto_embed_create_v1']);
  });

  it('owns the tables of its migration', () => {
    expect(automationModule.tables).toEqual([
      'workflows',
      'workflow_steps',
      'triggers',
      'workflow_executions',
      'workflow_step_runs',
      'user_tools',
      'tool_calls',
    ]);
  });

  it('announces a trigger change for the changes that alter which triggers fire, and only those', async () => {
    const workflow = await service.createWorkflow({ name: 'Tag' });
    expect(announced).toEqual([]);
    await service.updateWorkflow(workflow.id, { description: 'renamed only' });
    expect(announced).toEqual([]);
    await service.updateWorkflow(workflow.id, { is_active: false });
    const trigger = await service.createTrigger({
      name: 'On node',
      event_source: 'node.create',
      filters: {},
      workflow_id: workflow.id,
    });
    await service.updateTrigger(trigger.id, { priority: 3 });
    await service.deleteTrigger(trigger.id);
    await service.deleteWorkflow(workflow.id);
    expect(announced).toEqual(['notes', 'notes', 'notes', 'notes', 'notes']);
  });

  it('answers 404 for the statistics of a tool never called and for the triggers of a missing workflow', async () => {
    await expect(service.toolStats('system', 'data.merge')).rejects.toMatchObject({
      message: "system tool statistics 'data.merge' not found",
    });
    await expect(service.workflowTriggers('wf_missing')).rejects.toMatchObject({
      details: { resource_type: 'workflow', identifier: 'wf_missing' },
    });
  });
});
