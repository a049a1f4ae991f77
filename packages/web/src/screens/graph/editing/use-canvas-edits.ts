import { useCallback, useMemo } from 'react';
import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { api } from '../../../lib/api.ts';
import { useAction } from '../../../lib/data/use-action.ts';
import type { Point } from '../GraphCanvas.tsx';
import type { LoadedGraph } from '../use-graph-data.ts';
import { addCreatedNode, dropEdge, dropNode, putEdge } from './graph-edits.ts';
import type { EntityInput } from '../../entities/EntityForm.tsx';

export interface LinkInput {
  from: string;
  to: string;
  templateId: string;
  label: string;
  properties: Record<string, unknown>;
}

/**
 * The canvas's changes to the graph, each through its endpoint (POST/PATCH/DELETE /nodes and /edges), then
 * made to the loaded graph in place (`touched` tells the views that depend on it): one item redrawn rather
 * than the whole canvas loaded again. The lists of the other screens load again through their tags.
 */
export function useCanvasEdits(loaded: LoadedGraph | undefined, touched: () => void) {
  const { run: postNode } = useAction(nodeEndpoints.create);
  // A deleted item's own reads would answer 404: only the lists load again.
  const { run: deleteNode } = useAction(nodeEndpoints.remove, {
    refreshes: [{ tag: 'nodes', endpoint: nodeEndpoints.list }],
  });
  const { run: postEdge } = useAction(edgeEndpoints.create);
  const { run: patchEdge } = useAction(edgeEndpoints.update);
  const { run: deleteEdgeCall } = useAction(edgeEndpoints.remove, {
    refreshes: [{ tag: 'edges', endpoint: edgeEndpoints.list }],
  });

  const addNode = useCallback(
    async (input: EntityInput, position: Point) => {
      const node = await postNode({
        body: { template_id: input.templateId, label: input.label, properties: input.properties, position },
      });
      if (loaded) addCreatedNode(loaded.graph, node, loaded.colors);
      touched();
      return node;
    },
    [postNode, loaded, touched],
  );

  return useMemo(
    () => ({
      /** A new entity at a point of the graph (its position saved with it). */
      createEntity: addNode,
      /** A copy of an entity (type, properties, name marked as a copy) at a point. */
      duplicate: async (id: string, position: Point) => {
        const original = await api.call(nodeEndpoints.get, { params: { node_id: id } });
        return addNode(
          { templateId: original.template_id, label: `${original.label} (copy)`, properties: original.properties },
          position,
        );
      },
      link: async (input: LinkInput) => {
        const edge = await postEdge({
          body: {
            template_id: input.templateId,
            source_node_id: input.from,
            target_node_id: input.to,
            label: input.label,
            properties: input.properties,
          },
        });
        if (loaded) putEdge(loaded.graph, edge);
        touched();
        return edge;
      },
      saveEdge: async (id: string, change: { label: string; properties: Record<string, unknown> }) => {
        const edge = await patchEdge({ params: { edge_id: id }, body: change });
        if (loaded) putEdge(loaded.graph, edge);
        touched();
      },
      deleteEntity: async (id: string) => {
        await deleteNode({ params: { node_id: id } });
        if (loaded) dropNode(loaded.graph, id);
        touched();
      },
      deleteEdge: async (id: string) => {
        await deleteEdgeCall({ params: { edge_id: id } });
        if (loaded) dropEdge(loaded.graph, id);
        touched();
      },
    }),
    [addNode, postEdge, patchEdge, deleteNode, deleteEdgeCall, loaded, touched],
  );
}

export type CanvasEdits = ReturnType<typeof useCanvasEdits>;
