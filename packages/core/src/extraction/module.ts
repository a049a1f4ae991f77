import type { DatabaseHandle, FeatureModule, Platform } from '../platform/index.ts';
import { agentAbandonmentSweep } from './agent/abandonment.ts';
import { ExtractionService } from './service.ts';
import { defineExtractionOperations } from './tasks.ts';

function extractionService(platform: Platform, { name, db }: DatabaseHandle): ExtractionService {
  return new ExtractionService({
    db,
    database: name,
    queue: platform.queue,
    tasks: platform.tasks,
    settings: () => platform.settings.get(),
    readiness: platform.providers.readiness,
  });
}

/** Extraction: runs of a source's groups through the model, their finalisation and commit to the graph, bulk runs. */
export const extractionModule: FeatureModule<ExtractionService> = {
  name: 'extraction',
  tables: ['extraction_jobs', 'extraction_groups', 'source_citations', 'relationship_citations'],
  defineTasks(registry, platform) {
    defineExtractionOperations(registry, {
      databases: platform.databases,
      settings: () => platform.settings.get(),
      llm: platform.providers.llm,
      embeddings: platform.providers.embeddings,
      queue: platform.queue,
      events: platform.graphEvents,
      nodeVectors: (name) => platform.vectorWriters.nodes.sink(name),
      extraction: (name, db) => extractionService(platform, { name, db }),
    });
  },
  service: extractionService,
  background: [agentAbandonmentSweep],
};
