import { useCallback, useEffect, useMemo, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { graphEndpoints } from '@rhizome/contracts/api/graph';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { messageOf } from '../../lib/api.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { graphChangedEvent } from '../../lib/graph-changes.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import {
  buildGraph,
  templateColors,
  unsavedCount,
  type CanvasData,
  type KnowledgeGraph,
} from '../../lib/graph-model.ts';
import { saveAllPositions, saveNodePosition } from '../../lib/graph-positions.ts';
import { runLayout, type LayoutRun } from './layout.ts';

/** The canvas answer with what is built from it: the template colours and the drawable graph. */
export interface LoadedGraph {
  data: CanvasData;
  colors: Map<string, string>;
  graph: KnowledgeGraph;
}

/**
 * The graph of the chosen sources (all when none is chosen), built once per answer, kept laid out: a
 * graph without saved positions is arranged once (when `physical`, the force layout being the one shown)
 * and the positions kept for the next visit.
 */
export function useGraphData(sourceIds: string[], physical: boolean) {
  const sources = useEndpoint(sourceEndpoints.list, { query: { page_size: 1000, status: 'committed' } });
  const canvas = useEndpoint(graphEndpoints.canvas, {
    query: { source_ids: sourceIds.length ? sourceIds : undefined },
  });
  const answer = canvas.data;
  const loaded = useMemo<LoadedGraph | undefined>(() => {
    if (!answer) return undefined;
    performance.mark('graph:data');
    const colors = templateColors(answer.templates);
    return { data: answer, colors, graph: buildGraph(answer, colors) };
  }, [answer]);
  const graph = loaded?.graph;

  // An entity changed elsewhere (renamed, merged, deleted in the inspector) shows after a reload.
  const { reload } = canvas;
  useEffect(() => {
    const changed = () => void reload();
    window.addEventListener(graphChangedEvent, changed);
    return () => window.removeEventListener(graphChangedEvent, changed);
  }, [reload]);

  const [layout, setLayout] = useState<LayoutRun | null>(null);
  const arrange = useCallback((target: KnowledgeGraph) => {
    const run = runLayout(target);
    setLayout(run);
    void run.done.then(async () => {
      setLayout((current) => (current === run ? null : current));
      try {
        await saveAllPositions(target);
      } catch (error) {
        notifications.show({ color: 'red', title: 'Could not save the layout', message: messageOf(error) });
      }
    });
  }, []);
  useEffect(() => {
    if (!graph || graph.order === 0 || !physical) return;
    if (unsavedCount(graph) > graph.order * 0.2) arrange(graph);
    else if (unsavedCount(graph) > 0) void saveAllPositions(graph).catch(() => undefined);
  }, [graph, arrange, physical]);
  useEffect(() => () => layout?.stop(), [layout]);

  // A computed layout's positions are not kept: moving an entity there moves it for this visit only.
  const moved = useCallback(
    (id: string) => {
      if (!graph || !physical) return;
      void saveNodePosition(graph, id).catch((error: unknown) =>
        notifications.show({ color: 'red', title: 'Could not save the position', message: messageOf(error) }),
      );
    },
    [graph, physical],
  );

  const typeNames = useMemo(
    () => new Map((answer?.templates ?? []).map((template) => [template.id, templateLabel(template.name)])),
    [answer],
  );
  const typeName = useCallback((id: string) => typeNames.get(id) ?? id, [typeNames]);
  const sourceOptions = useMemo(
    () =>
      (sources.data?.data ?? []).map((source) => ({
        value: source.id,
        label: source.title ?? source.filename ?? source.id,
      })),
    [sources.data],
  );

  return { loaded, graph, error: canvas.error, reload, layout, arrange, moved, typeName, sourceOptions };
}
