import { defineTool } from './types.ts';

interface LoopInput {
  items: unknown[];
  workflow_id?: string;
  item_input: string;
  inputs?: Record<string, unknown>;
  max_iterations: number;
}

/**
 * `logic.loop`: runs a workflow once per item, one after the other (nested in this execution, so the
 * depth limit and cancellation apply), and collects their outputs. Without a workflow it returns the
 * items themselves, capped at `max_iterations`.
 */
export const logicLoop = defineTool<LoopInput>({
  id: 'logic.loop',
  category: 'logic',
  name: 'Loop',
  description:
    'Runs a workflow once per item of a list (the item passed as the input named item_input, with any extra inputs) and collects the outputs.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['items'],
    properties: {
      items: { type: 'array' },
      workflow_id: { type: 'string', minLength: 1 },
      item_input: { type: 'string', minLength: 1, default: 'item' },
      inputs: { type: 'object' },
      max_iterations: { type: 'integer', minimum: 1, maximum: 10_000, default: 1000 },
    },
  },
  outputSchema: { type: 'object', properties: { results: { type: 'array' }, count: { type: 'integer' } } },
  async run(input, context) {
    const items = input.items.slice(0, input.max_iterations);
    if (!input.workflow_id) return { results: items, count: items.length };
    const results: unknown[] = [];
    for (const [index, item] of items.entries()) {
      if (context.signal.aborted) break;
      results.push(await context.runWorkflow(input.workflow_id, { ...input.inputs, [input.item_input]: item, index }));
    }
    return { results, count: results.length };
  },
});
