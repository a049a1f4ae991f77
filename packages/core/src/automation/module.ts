import type { TaskStore } from '@rhizome/queue';
import type { DatabaseManager } from '../databases/index.ts';
import type { FeatureModule } from '../module/index.ts';
import type { Providers } from '../providers/index.ts';
import type { VectorWriterSet } from '../search/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import { countRows } from '../storage/index.ts';
import type { Automation } from './automation.ts';
import { defineAutomationOperations } from './engine/execute-tasks.ts';
import { seedAutomation } from './seeds.ts';
import { AutomationService } from './service.ts';

/** What the automation module needs of the process it runs in. */
export interface AutomationHost {
  databases: DatabaseManager;
  settings: Pick<SettingsStore, 'get'>;
  providers: Pick<Providers, 'llm' | 'embeddings'>;
  vectorWriters: Pick<VectorWriterSet, 'nodes'>;
  automation: Automation;
  tasks: Pick<TaskStore, 'cancel'>;
}

/**
 * Workflows, their executions, event triggers and user tools. The process-wide part (the trigger
 * dispatcher, `platform.automation`) is started by `startAutomation`; executions run as
 * `automation.execute_workflow` tasks.
 */
export const automationModule: FeatureModule<AutomationService, AutomationHost> = {
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
  defineTasks(registry, host) {
    defineAutomationOperations(registry, {
      databases: host.databases,
      settings: () => host.settings.get(),
      llm: host.providers.llm,
      embeddings: host.providers.embeddings,
      nodeVectors: (name) => host.vectorWriters.nodes.sink(name),
    });
  },
  service: (host, { name, db }) =>
    new AutomationService({
      db,
      database: name,
      automation: host.automation,
      cancelTask: (taskId) => host.tasks.cancel(taskId, Date.now()),
    }),
  counts: { workflows: (db) => countRows(db, 'workflows') },
  seeds: [seedAutomation],
};
