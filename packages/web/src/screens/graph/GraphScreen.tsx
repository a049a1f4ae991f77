import { useMemo, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { countOf } from '../../lib/format.ts';
import { useExtractor } from '../../lib/extractor.ts';
import { AgentExtractionOffer } from '../../components/AgentExtractionOffer.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useInspector } from '../../components/Inspector.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import type { CanvasHandle } from './GraphCanvas.tsx';
import type { LegendEntry } from './GraphLegend.tsx';
import { GraphSidePanel } from './GraphSidePanel.tsx';
import { GraphStage } from './GraphStage.tsx';
import { GraphToolbar } from './GraphToolbar.tsx';
import { useGraphData } from './use-graph-data.ts';
import { useGraphWalk } from './use-graph-walk.ts';

/** The knowledge graph drawn with WebGL: find, walk, filter and arrange entities; the side list is its text alternative. */
export default function GraphScreen() {
  const [sourceIds, setSourceIds] = useState<string[]>([]);
  const canvas = useRef<CanvasHandle>(null);
  const { openNode } = useInspector();
  const { loaded, graph, error, reload, layout, arrange, moved, typeName, sourceOptions } = useGraphData(sourceIds);
  const walk = useGraphWalk(loaded, canvas);
  const extractor = useExtractor();

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
        description="Entities and their relationships. Click or search an entity to walk from it; drag to move it."
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
          <Button size="xs" variant="default" disabled={!graph?.order} onClick={() => graph && arrange(graph)}>
            Arrange again
          </Button>
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
      />
      {data?.truncated && (
        <Alert color="blue" variant="light" p="xs">
          Showing the {data.nodes.length.toLocaleString()} best-connected of{' '}
          {countOf(data.total_nodes, 'entity', 'entities')} ({data.edges.length.toLocaleString()} of{' '}
          {countOf(data.total_edges, 'relationship')}). Expand an entity or pick sources to see the rest.
        </Alert>
      )}
      {extractor === 'builtin' && (data?.total_nodes ?? 0) > 0 && <AgentExtractionOffer />}
      {walk.highlight.size > 0 && (
        <Group gap="xs">
          <Badge variant="light" tt="none">
            {countOf(walk.highlight.size, 'highlighted entity', 'highlighted entities')}
          </Badge>
          <Anchor component="button" type="button" fz="sm" onClick={walk.clearHighlight}>
            Clear the highlight
          </Anchor>
        </Group>
      )}
      <Text id="graph-canvas-help" className="visually-hidden">
        Arrow keys pan, plus and minus zoom. The list beside the canvas shows the selected entity and its neighbours.
      </Text>
      <Group align="stretch" gap="sm" wrap="wrap">
        <GraphStage
          canvas={canvas}
          graph={graph}
          view={walk.view}
          onSelect={(id) => walk.select(id, false)}
          onMoved={moved}
          onFirstFrame={walk.firstFrame}
        />
        <GraphSidePanel graph={graph} walk={walk} legend={legend} typeName={typeName} onOpen={openNode} />
      </Group>
    </Stack>
  );
}
