import { useCallback, useMemo, useState, type RefObject } from 'react';
import { notifications } from '@mantine/notifications';
import { bidirectional } from 'graphology-shortest-path/unweighted';
import { useSearchParams } from 'react-router-dom';
import { graphEndpoints } from '@rhizome/contracts/api/graph';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { addNeighbours, type KnowledgeGraph } from '../../lib/graph-model.ts';
import type { CanvasHandle, CanvasView } from './GraphCanvas.tsx';
import type { LoadedGraph } from './use-graph-data.ts';

const neighbourLimit = 200;

export interface GraphPath {
  nodes: string[];
  edges: Set<string>;
}

/** The shortest path between two entities of the loaded graph: no nodes when there is none. */
function pathBetween(graph: KnowledgeGraph, from: string, to: string): GraphPath {
  const nodes = bidirectional(graph, from, to);
  if (!nodes) return { nodes: [], edges: new Set() };
  const edges = new Set<string>();
  for (let index = 1; index < nodes.length; index += 1) {
    const edge = graph.edges(nodes[index - 1], nodes[index])[0];
    if (edge) edges.add(edge);
  }
  return { nodes, edges };
}

/**
 * Walking the graph: the selected entity (kept in the address as ?node=), the highlighted ones (?highlight=),
 * the hidden types, a path, and neighbours added on demand. Reading a source's entities and a node's
 * neighbours are one-off answers to a click, so they call the client directly rather than the cache.
 */
export function useGraphWalk(loaded: LoadedGraph | undefined, canvas: RefObject<CanvasHandle | null>) {
  const graph = loaded?.graph;
  const [params, setParams] = useSearchParams();
  const highlight = useMemo(() => new Set((params.get('highlight') ?? '').split(',').filter(Boolean)), [params]);
  const [selected, setSelected] = useState<string | null>(params.get('node'));
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [hiddenNodes, setHiddenNodes] = useState<Set<string>>(new Set());
  const [path, setPath] = useState<GraphPath | null>(null);
  const [pathTarget, setPathTarget] = useState<string | null>(null);
  const [expanding, setExpanding] = useState(false);
  // Counts changes made to the graph in place (neighbours added), which memoised views depend on.
  const [version, setVersion] = useState(0);

  const setParam = useCallback(
    (name: string, value: string | null, replace = true) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  const select = useCallback(
    (id: string | null, fly = true) => {
      setSelected(id);
      setParam('node', id);
      if (id && fly) canvas.current?.flyTo(id);
    },
    [setParam, canvas],
  );

  const view: CanvasView = useMemo(() => {
    const focus = new Set<string>(path ? path.nodes : highlight);
    return { focus, pathEdges: path?.edges ?? new Set(), hiddenTemplates: hidden, hiddenNodes, selected };
  }, [path, highlight, hidden, hiddenNodes, selected, version]);

  /** The graph changed in place (an edit on the canvas): the views that depend on it are worked out again. */
  const touch = useCallback(() => setVersion((value) => value + 1), []);

  const firstFrame = useCallback(() => {
    performance.mark('graph:first-frame');
    const present = [...highlight].filter((id) => graph?.hasNode(id));
    if (present.length) canvas.current?.fit(present);
    else if (selected && graph?.hasNode(selected)) canvas.current?.flyTo(selected);
  }, [graph, highlight, selected, canvas]);

  const highlightSource = async (sourceId: string | null) => {
    setPath(null);
    try {
      const ids = sourceId
        ? (
            await api.call(nodeEndpoints.list, { query: { source_ids: sourceId, minimal: true, page_size: 1000 } })
          ).data.map((node) => node.id)
        : [];
      setParam('highlight', ids.length ? ids.join(',') : null, false);
      const present = ids.filter((id) => graph?.hasNode(id));
      if (present.length) canvas.current?.fit(present);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not highlight the source', message: messageOf(error) });
    }
  };

  const expand = async (id: string) => {
    if (!loaded) return;
    setExpanding(true);
    try {
      const answer = await api.call(graphEndpoints.groundingNeighbors, {
        params: { node_id: id },
        query: { limit: neighbourLimit },
      });
      const neighbours = answer.neighbors.map((item) => ({
        node: item.node,
        edgeId: item.edge_id,
        relationship: item.relationship_type,
        direction: item.direction,
      }));
      const added = addNeighbours(loaded.graph, id, neighbours, loaded.colors);
      touch();
      const partial =
        answer.total > answer.neighbors.length
          ? ` (the first ${answer.neighbors.length.toLocaleString()} of ${countOf(answer.total, 'connection')})`
          : '';
      notifications.show({
        message: added
          ? `Neighbours added: ${countOf(added, 'new entity', 'new entities')}${partial}.`
          : `Neighbours added: none new, all of them were already shown${partial}.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not expand', message: messageOf(error) });
    } finally {
      setExpanding(false);
    }
  };

  const findPath = (target: string | null) => {
    setPathTarget(target);
    if (!graph || !selected || !target) return setPath(null);
    const found = pathBetween(graph, selected, target);
    setPath(found);
    if (found.nodes.length) canvas.current?.fit(found.nodes);
  };

  /** A new start: the path no longer applies. */
  const walkTo = (id: string) => {
    setPath(null);
    setPathTarget(null);
    select(id);
  };

  return {
    highlight,
    clearHighlight: () => setParam('highlight', null, false),
    selected,
    select,
    walkTo,
    hidden,
    setHidden,
    hiddenNodes,
    hide: (id: string) => {
      setHiddenNodes((current) => new Set(current).add(id));
      if (id === selected) select(null);
    },
    showHidden: () => setHiddenNodes(new Set()),
    touch,
    path,
    clearPath: () => setPath(null),
    pathTarget,
    findPath,
    expand,
    expanding,
    highlightSource,
    view,
    firstFrame,
    version,
  };
}
