import { templateSummaries } from '../read-model.ts';
import { defineTool } from './types.ts';

interface TemplatesInput {
  template_type?: 'node' | 'edge';
  limit: number;
}

/** `templates.list`: the graph templates of the database, for steps that type what they create. */
export const templatesList = defineTool<TemplatesInput>({
  id: 'templates.list',
  category: 'templates',
  name: 'List Templates',
  description: 'Lists the node and edge templates of the active database (id, name, type, description).',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    properties: {
      template_type: { type: 'string', enum: ['node', 'edge'] },
      limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    },
  },
  outputSchema: { type: 'object', properties: { templates: { type: 'array' }, count: { type: 'integer' } } },
  async run(input, context) {
    const templates = await templateSummaries(context.db, { templateType: input.template_type, limit: input.limit });
    return { templates, count: templates.length };
  },
});
