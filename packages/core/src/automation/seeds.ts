import type { Db } from '../storage/index.ts';
import { now } from './rows.ts';
import { toStepRow, stepFromInput } from './workflows/repo.ts';
import { defaultWorkflowMaxRetries, defaultWorkflowTimeoutSeconds } from './workflows/types.ts';

/** The system workflow that embeds new nodes and the trigger that runs it on every node created. */
export const generateEmbeddingsWorkflowId = 'system_workflow_generate_embeddings_v1';
export const autoEmbedTriggerId = 'system_trigger_auto_embed_create_v1';

const inputSchema = {
  type: 'object',
  required: ['entity_id'],
  properties: { entity_id: { type: 'string' }, entity_type: { type: 'string' }, entity: {} },
};

/**
 * Seeds every database idempotently: rows that exist are left as they are (an operator's
 * `enabled`/`is_active` choice survives restarts).
 */
export async function seedAutomation(db: Db): Promise<void> {
  const at = now();
  await db.transaction(async (trx) => {
    await trx('workflows')
      .insert({
        id: generateEmbeddingsWorkflowId,
        name: 'Generate Embeddings',
        description: 'Embeds a node so that semantic search finds it.',
        category: 'system',
        is_system: true,
        is_active: true,
        expose_as_ai_tool: false,
        input_schema: JSON.stringify(inputSchema),
        output_schema: null,
        allow_parallel_execution: true,
        timeout_seconds: defaultWorkflowTimeoutSeconds,
        max_retries: defaultWorkflowMaxRetries,
        tags: JSON.stringify(['system', 'embeddings']),
        icon: 'sparkles',
        version: 1,
        created_at: at,
        updated_at: at,
      })
      .onConflict('id')
      .ignore();
    const step = stepFromInput(
      generateEmbeddingsWorkflowId,
      {
        id: `${generateEmbeddingsWorkflowId}_step_generate`,
        step_number: 1,
        name: 'Generate embedding',
        tool_type: 'system_tool',
        tool_id: 'ai.generate_embedding',
        configuration: {
          entity_id: '{{inputs.entity_id}}',
          entity_type: '{{inputs.entity_type}}',
          entity: '{{inputs.entity}}',
        },
        retry_on_failure: true,
      },
      at,
    );
    await trx('workflow_steps').insert(toStepRow(step)).onConflict(['workflow_id', 'id']).ignore();
    await trx('triggers')
      .insert({
        id: autoEmbedTriggerId,
        name: 'Auto-Embed on Node Create',
        event_source: 'node.create',
        filters: '{}',
        workflow_id: generateEmbeddingsWorkflowId,
        workflow_inputs: null,
        enabled: true,
        priority: 0,
        is_system: true,
        created_at: at,
        updated_at: at,
      })
      .onConflict('id')
      .ignore();
  });
}

/** `PATCH /settings` `embedding.enable_auto_embedding`: switches the system triggers of one database, and only those. */
export async function setSystemTriggersEnabled(db: Db, enabled: boolean): Promise<number> {
  return db('triggers').where({ is_system: true }).update({ enabled, updated_at: now() });
}
