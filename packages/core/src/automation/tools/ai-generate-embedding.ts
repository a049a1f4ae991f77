import { embedNodes } from '../../search/index.ts';
import { userVectorModel } from '../../graph/index.ts';
import { nodeExists, nodeVectorIdentity } from '../read-model.ts';
import { defineTool, ToolInputError, type ToolContext } from './types.ts';

interface EmbeddingInput {
  entity_id?: string | null;
  entity_type?: string | null;
  entity?: unknown;
  text?: string;
  force: boolean;
}

/**
 * `ai.generate_embedding`: embeds a text (returning the vector), or a node by id, stored as the node's
 * vector and handed to the node index, like a committed node's. A node that already has a vector of the
 * configured model (committed nodes are embedded at commit) or one a client supplied keeps it unless
 * `force` is set. Edges carry no vectors: an edge entity is reported as not embedded.
 */
export const aiGenerateEmbedding = defineTool<EmbeddingInput>({
  id: 'ai.generate_embedding',
  category: 'ai',
  name: 'Generate Embedding',
  description:
    'Embeds a text with the configured embedding model, or (entity_type node, entity_id) embeds a node and stores its vector for search.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    properties: {
      entity_id: { type: ['string', 'null'] },
      entity_type: { type: ['string', 'null'] },
      entity: {},
      text: { type: 'string', minLength: 1 },
      force: { type: 'boolean', default: false },
    },
  },
  outputSchema: {
    type: 'object',
    properties: {
      embedded: { type: 'boolean' },
      entity_id: { type: ['string', 'null'] },
      model: { type: 'string' },
      dimensions: { type: ['integer', 'null'] },
      embedding: { type: 'array', items: { type: 'number' } },
      reason: { type: 'string' },
    },
  },
  async run(input, context) {
    const model = context.embeddings.identity().model;
    if (input.text !== undefined) {
      const [vector] = await context.embeddings.embed([input.text], {
        signal: context.signal,
        context: { database: context.database },
      });
      return { embedded: true, entity_id: null, model, dimensions: vector.length, embedding: Array.from(vector) };
    }
    if (!input.entity_id) throw new ToolInputError('give either text or entity_id');
    if ((input.entity_type ?? 'node') !== 'node')
      return {
        embedded: false,
        entity_id: input.entity_id,
        model,
        dimensions: null,
        reason: 'only nodes have embeddings',
      };
    return embedNode(input.entity_id, input.force, context);
  },
});

async function embedNode(nodeId: string, force: boolean, context: ToolContext): Promise<Record<string, unknown>> {
  const model = context.embeddings.identity().model;
  if (!(await nodeExists(context.db, nodeId))) throw new ToolInputError(`node '${nodeId}' not found`);
  const current = await nodeVectorIdentity(context.db, nodeId);
  if (current?.model === userVectorModel)
    return {
      embedded: false,
      entity_id: nodeId,
      model: current.model,
      dimensions: current.dimensions,
      reason: 'the node has a client-supplied embedding',
    };
  if (current?.model === model && !force)
    return {
      embedded: false,
      entity_id: nodeId,
      model,
      dimensions: current.dimensions,
      reason: 'already embedded with this model',
    };
  const embedder = {
    identity: () => context.embeddings.identity(),
    embed: (texts: string[]) =>
      context.embeddings.embed(texts, { signal: context.signal, context: { database: context.database } }),
  };
  try {
    await embedNodes(context.db, [nodeId], embedder, context.nodeVectors);
  } catch (error) {
    // Deleted while it was embedded (a replacing import, a delete): nothing is left to embed.
    if (!(await nodeExists(context.db, nodeId)))
      return { embedded: false, entity_id: nodeId, model, dimensions: null, reason: 'the node was deleted meanwhile' };
    throw error;
  }
  const stored = await nodeVectorIdentity(context.db, nodeId);
  return { embedded: stored !== undefined, entity_id: nodeId, model, dimensions: stored?.dimensions ?? null };
}
