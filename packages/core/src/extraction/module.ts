import type { DatabaseHandle, FeatureModule } from '../module/index.ts';
import { agentAbandonmentSweep } from './agent/abandonment.ts';
import { attemptRetentionSweep } from './attempts/retention.ts';
import type { ExtractionHost } from './host.ts';
import { ExtractionService } from './service.ts';
import { defineExtractionOperations } from './tasks.ts';

function extractionService(host: ExtractionHost, { name, db }: DatabaseHandle): ExtractionService {
  return new ExtractionService({
    db,
    database: name,
    queue: host.queue,
    tasks: host.tasks,
    settings: () => host.settings.get(),
    readiness: host.providers.readiness,
    metrics: host.providers.metrics,
  });
}

/** Extraction: runs of a source's groups through the model, their finalisation and commit to the graph, bulk runs. */
export const extractionModule: FeatureModule<ExtractionService, ExtractionHost> = {
  name: 'extraction',
  tables: [
    'extraction_jobs',
    'extraction_groups',
    'extraction_attempts',
    'extraction_prompts',
    'recovery_events',
    'source_citations',
    'relationship_citations',
  ],
  defineTasks(registry, host) {
    defineExtractionOperations(registry, {
      databases: host.databases,
      settings: () => host.settings.get(),
      llm: host.providers.llm,
      embeddings: host.providers.embeddings,
      queue: host.queue,
      events: host.graphEvents,
      nodeVectors: (name) => host.vectorWriters.nodes.sink(name),
      extraction: (name, db) => extractionService(host, { name, db }),
    });
  },
  service: extractionService,
  background: [agentAbandonmentSweep, attemptRetentionSweep],
};
