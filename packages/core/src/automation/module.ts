import { countRows } from '../storage/index.ts';
import type { FeatureModule } from '../platform/index.ts';
import { defineAutomationOperations } from './engine/operation.ts';
import { seedAutomation } from './seeds.ts';
import { AutomationService } from './service.ts';

/**
 * Workflows, their executions, event triggers and user tools. The process-wide part (the trigger
 * dispatcher, `platform.automation`) is started by `startAutomation`; executions run as
 * `automation.execute_workflow` tasks.
 */
export const automationModule: FeatureModule<AutomationService> = {
  name: 'automation',
  tables: [
    'workflows',
    'workflow_steps',
    'triggers',
    'workflow_executions',
    'workflow_step_runs',
    'user_tools',
    'tool_calls',
  ],
  defineTasks(registry, platform) {
    defineAutomationOperations(registry, {
      databases: platform.databases,
      settings: () => platform.settings.get(),
      llm: platform.providers.llm,
      embeddings: platform.providers.embeddings,
      nodeVectors: (name) => platform.vectorWriters.nodes.sink(name),
    });
  },
  service: (platform, { name, db }) =>
    new AutomationService({
      db,
      database: name,
      automation: platform.automation,
      cancelTask: (taskId) => platform.tasks.cancel(taskId, Date.now()),
    }),
  counts: { workflows: (db) => countRows(db, 'workflows') },
  seeds: [seedAutomation],
};
