import { Type } from '@sinclair/typebox';
import { edgeCreateFields, nodeCreateFields, nodeUpdateFields } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { graphModule, textChanged } from '@rhizome/core/graph';
import { tool } from '../tool.ts';

const { embedding: _nodeVector, position: _nodePosition, ...newNodeFields } = nodeCreateFields;
const { embedding: _updateVector, position: _updatePosition, ...changedNodeFields } = nodeUpdateFields;

const withoutVector = <T extends { embedding?: unknown }>({ embedding: _vector, ...rest }: T) => rest;

/** Node, edge and template changes, through the services POST/PATCH/DELETE /nodes, /edges and /templates use. */
export const graphWriteTools = [
  tool({
    name: 'create_node',
    kind: 'write',
    description:
      'Create a node (entity) of a node template; find the template with search_templates. properties may hold description and aliases.',
    input: Type.Object(newNodeFields),
    async run(args, { scope }) {
      return withoutVector(await (await scope.service(graphModule)).createNode(args));
    },
  }),
  tool({
    name: 'update_node',
    kind: 'write',
    description:
      "Change a node's label or properties (properties are replaced as a whole: read them with get_node first).",
    input: Type.Object({ node_id: Type.String({ minLength: 1 }), ...changedNodeFields }),
    async run({ node_id, ...changes }, { platform, scope }) {
      const node = await (await scope.service(graphModule)).updateNode(node_id, changes);
      if (textChanged(changes)) await platform.automation.reembedNode((await scope.database()).name, node_id);
      return withoutVector(node);
    },
  }),
  tool({
    name: 'delete_node',
    kind: 'write',
    description: 'Delete a node and its edges.',
    input: Type.Object({ node_id: Type.String({ minLength: 1 }) }),
    async run({ node_id }, { scope }) {
      await (await scope.service(graphModule)).deleteNode(node_id);
      return { node_id, deleted: true };
    },
  }),
  tool({
    name: 'create_edge',
    kind: 'write',
    description:
      'Create a relationship (edge) of an edge template between two existing nodes; label is the relationship type.',
    input: Type.Object(edgeCreateFields),
    async run(args, { scope }) {
      return (await scope.service(graphModule)).createEdge(args);
    },
  }),
  tool({
    name: 'create_template',
    kind: 'write',
    description: 'Create a node or edge template (an entity or relationship type) with its property definitions.',
    input: templateEndpoints.create.body as NonNullable<typeof templateEndpoints.create.body>,
    async run(args, { scope }) {
      return (await scope.service(graphModule)).templates.create(args);
    },
  }),
  tool({
    name: 'delete_template',
    kind: 'write',
    description: 'Delete a template; refused while nodes or edges use it unless force is true.',
    input: Type.Object({ template_id: Type.String({ minLength: 1 }), force: Type.Boolean({ default: false }) }),
    async run({ template_id, force }, { scope }) {
      await (await scope.service(graphModule)).templates.remove(template_id, { force });
      return { template_id, deleted: true };
    },
  }),
];
