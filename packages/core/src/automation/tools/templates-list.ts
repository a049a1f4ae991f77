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
    const query = context.db('graph_templates').select('id', 'name', 'template_type', 'description').orderBy('name').limit(input.limit);
    if (input.template_type) query.where({ template_type: input.template_type });
    const templates = (await query) as { id: string; name: string; template_type: string; description: string | null }[];
    return { templates, count: templates.length };
  },
});
