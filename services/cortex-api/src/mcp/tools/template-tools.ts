import { Type } from '@sinclair/typebox';
import { graphModule } from '@rhizome/core/graph';
import { tool } from '../tool.ts';

/** The most templates a database lists at once; far more than any domain defines. */
const templateListLimit = 1000;

export const templateTools = [
  tool({
    name: 'list_templates',
    kind: 'read',
    description:
      'Every node or edge template (entity and relationship type) of the database, with its id, description and properties, to filter by type or create nodes and edges.',
    input: Type.Object({
      template_type: Type.Optional(Type.Union([Type.Literal('node'), Type.Literal('edge')])),
    }),
    async run({ template_type }, { scope }) {
      const { templates } = await (
        await scope.service(graphModule)
      ).templates.list({ templateType: template_type, offset: 0, limit: templateListLimit });
      return { success: true, count: templates.length, templates };
    },
  }),
];
