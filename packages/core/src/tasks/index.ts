export { awaitTask } from './await-task.ts';
export { submitDatabaseTask } from './database-task.ts';
export { tasksModule } from './module.ts';
export { openTaskStore } from './open-store.ts';
export { PauseFilter } from './pause-filter.ts';
export { llmConcurrency, maxTries, runtimeSettings } from './settings.ts';
export { queueStats, taskDetail, taskSummary } from './views.ts';
