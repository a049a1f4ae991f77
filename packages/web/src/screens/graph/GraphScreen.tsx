import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { countOf } from '../../lib/format.ts';
import { useExtractor } from '../../lib/extractor.ts';
import { AgentExtractionOffer } from '../../components/AgentExtractionOffer.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useInspector } from '../../components/Inspector.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CanvasDialogs } from './editing/CanvasDialogs.tsx';
import { SelectionStatus } from './editing/SelectionStatus.tsx';
import { useCanvasEdits } from './editing/use-canvas-edits.ts';
import { useCanvasEditor } from './editing/use-canvas-editor.ts';
import type { CanvasHandle } from './GraphCanvas.tsx';
import type { LegendEntry } from './GraphLegend.tsx';
import { GraphSidePanel } from './GraphSidePanel.tsx';
import { GraphStage } from './GraphStage.tsx';
import { GraphToolbar } from './GraphToolbar.tsx';
import { ClusterHalos } from './layouts/ClusterHalos.tsx';
import { ClusterLabels } from './layouts/ClusterLabels.tsx';
import { LayoutControls } from './layouts/LayoutControls.tsx';
import { discArea } from './layouts/source-clusters.ts';
import { useCanvasLayout } from './layouts/use-canvas-layout.ts';
import { useViewChoices } from './layouts/use-view-choices.ts';
import { useGraphData } from './use-graph-data.ts';
import { useGraphWalk } from './use-graph-walk.ts';

/**
 * The knowledge graph drawn with WebGL: find, walk, filter, arrange and edit entities and relationships with
 * the pointer or the keyboard; the side list is its text alternative.
 */
export default function GraphScreen() {
  const [sourceIds, setSourceIds] = useState<string[]>([]);
  const canvas = useRef<CanvasHandle>(null);
  const { openNode } = useInspector();
  const choices = useViewChoices();
  const { loaded, graph, error, reload, layout, arrange, moved, typeName, sourceOptions } = useGraphData(
    sourceIds,
    choices.layout === 'force',
  );
  const walk = useGraphWalk(loaded, canvas);
  const arrangement = useCanvasLayout(graph, choices.layout, walk.selected);
  const edits = useCanvasEdits(loaded, walk.touch);
  const view = useMemo(
    () =>
      arrangement.hiddenByClusters.size
        ? { ...walk.view, hiddenNodes: new Set([...walk.view.hiddenNodes, ...arrangement.hiddenByClusters]) }
        : walk.view,
    [walk.view, arrangement.hiddenByClusters],
  );
  const isShown = useCallback(
    (id: string) =>
      !view.hiddenNodes.has(id) && !view.hiddenTemplates.has(graph?.getNodeAttribute(id, 'templateId') ?? ''),
    [view, graph],
  );
  const hiddenCount = useMemo(
    () => (graph ? graph.order - graph.filterNodes(isShown).length : 0),
    [graph, isShown, walk.version],
  );
  useEffect(() => {
    const handle = canvas.current;
    const { clusters } = arrangement;
    if (!handle || !clusters.length) return;
    // After the next frame: the one that frames the graph anew from the positions just applied.
    const stop = handle.onFrame(() => {
      stop();
      handle.fitArea(discArea(clusters));
    });
    return stop;
  }, [arrangement.clusters]);
  const editor = useCanvasEditor({ canvas, graph, walk, edits, isShown, openNode });
  const extractor = useExtractor();
  const sourceTitles = useMemo(
    () => new Map(sourceOptions.map((option) => [option.value, option.label])),
    [sourceOptions],
  );

  const legend = useMemo<LegendEntry[]>(() => {
    if (!loaded) return [];
    const counts = new Map<string, number>();
    loaded.graph.forEachNode((_, { templateId }) => counts.set(templateId, (counts.get(templateId) ?? 0) + 1));
    return loaded.data.templates
      .filter((template) => counts.has(template.id))
      .map((template) => ({ template, color: loaded.colors.get(template.id)!, count: counts.get(template.id)! }))
      .sort((a, b) => b.count - a.count);
  }, [loaded, walk.version]);

  if (error) return <ErrorNotice title="Could not load the graph" message={error} onRetry={() => void reload()} />;
  const data = loaded?.data;

  return (
    <Stack gap="sm">
      <PageHeader
        title="Graph"
        description="Entities and their relationships. Click or search an entity to walk from it; right-click, or press Enter on the canvas, to edit."
      >
        {layout ? (
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text fz="sm">Arranging…</Text>
            <Button size="xs" variant="default" onClick={() => layout.stop()}>
              Stop
            </Button>
          </Group>
        ) : (
          <LayoutControls
            layout={choices.layout}
            onLayout={(name) => {
              choices.setLayout(name);
              // Grouped by source, the view is framed on the clusters once they are made (below).
              if (name !== 'sources') requestAnimationFrame(() => canvas.current?.fit());
            }}
            onArrange={() => (choices.layout === 'force' ? graph && arrange(graph) : arrangement.rearrange())}
            arrangeDisabled={!graph?.order}
            labels={choices.labels}
            onLabels={choices.setLabels}
          />
        )}
      </PageHeader>
      <GraphToolbar
        graph={graph}
        version={walk.version}
        onFind={walk.walkTo}
        sourceIds={sourceIds}
        onSourceIds={(ids) => {
          walk.clearPath();
          setSourceIds(ids);
        }}
        sourceOptions={sourceOptions}
        onHighlightSource={(id) => void walk.highlightSource(id)}
        onActions={editor.openMenuHere}
        onShortcuts={() => editor.setDialog({ kind: 'shortcuts' })}
      />
      {data?.truncated && (
        <Alert color="blue" variant="light" p="xs">
          Showing the {data.nodes.length.toLocaleString()} best-connected of{' '}
          {countOf(data.total_nodes, 'entity', 'entities')} ({data.edges.length.toLocaleString()} of{' '}
          {countOf(data.total_edges, 'relationship')}). Expand an entity or pick sources to see the rest.
        </Alert>
      )}
      {extractor === 'builtin' && (data?.total_nodes ?? 0) > 0 && <AgentExtractionOffer />}
      <SelectionStatus graph={graph} walk={walk} editor={editor} typeName={typeName} />
      <Text id="graph-canvas-help" className="visually-hidden">
        Arrow keys select the nearest entity that way, Enter opens its menu, question mark lists every shortcut. Shift
        with the arrow keys pans, plus and minus zoom. The list beside the canvas shows the selected entity and its
        neighbours.
      </Text>
      <Group align="stretch" gap="sm" wrap="wrap">
        <GraphStage
          canvas={canvas}
          graph={graph}
          view={view}
          labels={choices.labels}
          hiddenCount={hiddenCount}
          onSelect={editor.onSelect}
          onMoved={moved}
          onMenu={editor.openMenu}
          onLinkDrag={editor.onLinkDrag}
          onKeyDown={editor.onKeyDown}
          onFirstFrame={walk.firstFrame}
          backdrop={
            choices.layout === 'sources' && (
              <ClusterHalos canvas={canvas} clusters={arrangement.clusters} collapsed={arrangement.collapsed} />
            )
          }
        >
          {graph && <CanvasDialogs graph={graph} editor={editor} edits={edits} onSelect={walk.select} />}
          {choices.layout === 'sources' && (
            <ClusterLabels
              canvas={canvas}
              clusters={arrangement.clusters}
              collapsed={arrangement.collapsed}
              titleOf={(id) => (id ? (sourceTitles.get(id) ?? 'A source') : 'Made by hand')}
              onToggle={arrangement.toggleCluster}
            />
          )}
        </GraphStage>
        <GraphSidePanel
          graph={graph}
          walk={walk}
          legend={legend}
          typeName={typeName}
          onOpen={openNode}
          onEditEdge={(id) => editor.setDialog({ kind: 'edge', id })}
        />
      </Group>
    </Stack>
  );
}
