import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFilter, IconFocusCentered, IconRoute, IconSearch, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { bidirectional } from 'graphology-shortest-path/unweighted';
import { Link, useSearchParams } from 'react-router-dom';
import { graphEndpoints } from '@rhizome/contracts/api/graph';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { graphChangedEvent } from '../../lib/graph-changes.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import {
  addNeighbours,
  buildGraph,
  findNodes,
  templateColors,
  unsavedCount,
  type KnowledgeGraph,
} from '../../lib/graph-model.ts';
import { saveAllPositions, saveNodePosition } from '../../lib/graph-positions.ts';
import { useLoad } from '../../lib/use-load.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useInspector } from '../../components/Inspector.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { GraphCanvas, type CanvasHandle, type CanvasView } from './GraphCanvas.tsx';
import { GraphLegend } from './GraphLegend.tsx';
import { runLayout, type LayoutRun } from './layout.ts';
import { Neighbourhood } from './Neighbourhood.tsx';

const neighbourLimit = 200;

/** The knowledge graph drawn with WebGL: find, walk, filter and arrange entities; the side list is its text alternative. */
export default function GraphScreen() {
  const [params, setParams] = useSearchParams();
  const highlight = useMemo(() => new Set((params.get('highlight') ?? '').split(',').filter(Boolean)), [params]);
  const [sourceIds, setSourceIds] = useState<string[]>([]);
  const canvas = useRef<CanvasHandle>(null);
  const { openNode } = useInspector();

  const sources = useLoad(
    () => api.call(sourceEndpoints.list, { query: { page_size: 1000, status: 'committed' } }),
    [],
  );
  const loaded = useLoad(async () => {
    const data = await api.call(graphEndpoints.canvas, {
      query: { source_ids: sourceIds.length ? sourceIds : undefined },
    });
    performance.mark('graph:data');
    const colors = templateColors(data.templates);
    return { data, colors, graph: buildGraph(data, colors) };
  }, [sourceIds]);

  const [selected, setSelected] = useState<string | null>(params.get('node'));
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [path, setPath] = useState<{ nodes: string[]; edges: Set<string> } | null>(null);
  const [pathTarget, setPathTarget] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [pathQuery, setPathQuery] = useState('');
  const [layout, setLayout] = useState<LayoutRun | null>(null);
  const [expanding, setExpanding] = useState(false);
  const [version, setVersion] = useState(0);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const graph = loaded.data?.graph;

  useEffect(() => {
    const reload = () => void loaded.reload();
    window.addEventListener(graphChangedEvent, reload);
    return () => window.removeEventListener(graphChangedEvent, reload);
  }, [loaded]);

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

  // A graph without saved positions is laid out once and the positions kept for the next visit.
  useEffect(() => {
    if (!graph || graph.order === 0) return;
    if (unsavedCount(graph) > graph.order * 0.2) arrange(graph);
    else if (unsavedCount(graph) > 0) void saveAllPositions(graph).catch(() => undefined);
  }, [graph, arrange]);
  useEffect(() => () => layout?.stop(), [layout]);

  const select = useCallback(
    (id: string | null, fly = true) => {
      setSelected(id);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set('node', id);
          else next.delete('node');
          return next;
        },
        { replace: true },
      );
      if (id && fly) canvas.current?.flyTo(id);
    },
    [setParams],
  );

  const view: CanvasView = useMemo(() => {
    const focus = new Set<string>();
    if (path) path.nodes.forEach((id) => focus.add(id));
    else if (highlight.size) highlight.forEach((id) => focus.add(id));
    return { focus, pathEdges: path?.edges ?? new Set(), hiddenTemplates: hidden, selected };
  }, [path, highlight, hidden, selected, version]);

  const firstFrame = useCallback(() => {
    performance.mark('graph:first-frame');
    const present = [...highlight].filter((id) => graph?.hasNode(id));
    if (present.length) canvas.current?.fit(present);
    else if (selected && graph?.hasNode(selected)) canvas.current?.flyTo(selected);
  }, [graph, highlight, selected]);

  const moved = useCallback(
    (id: string) => {
      if (!graph) return;
      void saveNodePosition(graph, id).catch((error: unknown) =>
        notifications.show({ color: 'red', title: 'Could not save the position', message: messageOf(error) }),
      );
    },
    [graph],
  );

  const highlightSource = async (sourceId: string | null) => {
    setPath(null);
    try {
      const ids = sourceId
        ? (
            await api.call(nodeEndpoints.list, { query: { source_ids: sourceId, minimal: true, page_size: 1000 } })
          ).data.map((node) => node.id)
        : [];
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (ids.length) next.set('highlight', ids.join(','));
        else next.delete('highlight');
        return next;
      });
      const present = ids.filter((id) => graph?.hasNode(id));
      if (present.length) canvas.current?.fit(present);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not highlight the source', message: messageOf(error) });
    }
  };

  const expand = async (id: string) => {
    if (!graph || !loaded.data) return;
    setExpanding(true);
    try {
      const answer = await api.call(graphEndpoints.groundingNeighbors, {
        params: { node_id: id },
        query: { limit: neighbourLimit },
      });
      const added = addNeighbours(
        graph,
        id,
        answer.neighbors.map((item) => ({
          node: item.node,
          edgeId: item.edge_id,
          relationship: item.relationship_type,
          direction: item.direction,
        })),
        loaded.data.colors,
      );
      setVersion((value) => value + 1);
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
    if (!graph || !selected || !target) {
      setPath(null);
      return;
    }
    const nodes = bidirectional(graph, selected, target);
    if (!nodes) {
      setPath({ nodes: [], edges: new Set() });
      return;
    }
    const edges = new Set<string>();
    for (let index = 1; index < nodes.length; index += 1) {
      const edge = graph.edges(nodes[index - 1], nodes[index])[0];
      if (edge) edges.add(edge);
    }
    setPath({ nodes, edges });
    canvas.current?.fit(nodes);
  };

  const typeNames = useMemo(
    () => new Map((loaded.data?.data.templates ?? []).map((template) => [template.id, templateLabel(template.name)])),
    [loaded.data],
  );
  const typeName = (id: string) => typeNames.get(id) ?? id;
  const legend = useMemo(() => {
    if (!loaded.data || !graph) return [];
    const counts = new Map<string, number>();
    graph.forEachNode((_, { templateId }) => counts.set(templateId, (counts.get(templateId) ?? 0) + 1));
    return loaded.data.data.templates
      .filter((template) => counts.has(template.id))
      .map((template) => ({ template, color: loaded.data!.colors.get(template.id)!, count: counts.get(template.id)! }))
      .sort((a, b) => b.count - a.count);
  }, [loaded.data, graph, version]);
  const matches = useMemo(() => (graph ? findNodes(graph, query) : []), [graph, query, version]);
  // Found as typed, like the search: a list of every entity would cost a render of thousands of options.
  const pathOptions = useMemo(() => {
    if (!graph) return [];
    const options = findNodes(graph, pathQuery)
      .filter((match) => match.id !== selected)
      .map((match) => ({ value: match.id, label: match.label }));
    if (pathTarget && graph.hasNode(pathTarget) && !options.some((option) => option.value === pathTarget))
      options.unshift({ value: pathTarget, label: graph.getNodeAttribute(pathTarget, 'label') });
    return options;
  }, [graph, pathQuery, pathTarget, selected, version]);
  const sourceOptions = useMemo(
    () =>
      (sources.data?.data ?? []).map((source) => ({
        value: source.id,
        label: source.title ?? source.filename ?? source.id,
      })),
    [sources.data],
  );
  const selectedPresent = selected !== null && graph?.hasNode(selected) === true;

  if (loaded.error)
    return <ErrorNotice title="Could not load the graph" message={loaded.error} onRetry={() => void loaded.reload()} />;
  const data = loaded.data?.data;

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
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          w={{ base: 0, sm: 300 }}
          flex={{ base: 1, sm: 'none' }}
          aria-label="Find an entity"
          placeholder="Find an entity…"
          leftSection={<IconSearch size={16} />}
          searchable
          searchValue={query}
          onSearchChange={setQuery}
          data={matches.map((match) => ({ value: match.id, label: match.label }))}
          filter={({ options }) => options}
          nothingFoundMessage={query.trim() ? 'No entity with that name in the loaded graph' : undefined}
          value={null}
          onChange={(id) => {
            if (!id) return;
            setPath(null);
            setPathTarget(null);
            select(id);
            setQuery('');
          }}
          comboboxProps={{ withinPortal: true }}
          data-testid="graph-search"
        />
        <Button
          hiddenFrom="sm"
          variant="default"
          leftSection={<IconFilter size={16} />}
          rightSection={
            sourceIds.length > 0 && (
              <Badge size="xs" circle aria-hidden>
                {sourceIds.length}
              </Badge>
            )
          }
          aria-expanded={filtersOpen}
          aria-controls="graph-source-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          Sources
          {sourceIds.length > 0 && <span className="visually-hidden">, {sourceIds.length} picked</span>}
        </Button>
        <Group
          id="graph-source-filters"
          gap="xs"
          align="flex-end"
          w={{ base: '100%', sm: 'auto' }}
          display={{ base: filtersOpen ? 'flex' : 'none', sm: 'flex' }}
        >
          <MultiSelect
            w={{ base: '100%', sm: 280 }}
            aria-label="Only entities from these sources"
            placeholder={sourceIds.length ? '' : 'All sources'}
            searchable
            clearable
            data={sourceOptions}
            value={sourceIds}
            onChange={(ids) => {
              setPath(null);
              setSourceIds(ids);
            }}
          />
          <Select
            w={{ base: '100%', sm: 240 }}
            aria-label="Highlight the entities of a source"
            placeholder="Highlight a source…"
            clearable
            data={sourceOptions}
            onChange={(id) => void highlightSource(id)}
          />
        </Group>
      </Group>
      {data?.truncated && (
        <Alert color="blue" variant="light" p="xs">
          Showing the {data.nodes.length.toLocaleString()} best-connected of{' '}
          {countOf(data.total_nodes, 'entity', 'entities')} ({data.edges.length.toLocaleString()} of{' '}
          {countOf(data.total_edges, 'relationship')}). Expand an entity or pick sources to see the rest.
        </Alert>
      )}
      {highlight.size > 0 && (
        <Group gap="xs">
          <Badge variant="light" tt="none">
            {countOf(highlight.size, 'highlighted entity', 'highlighted entities')}
          </Badge>
          <Anchor
            component="button"
            type="button"
            fz="sm"
            onClick={() =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                next.delete('highlight');
                return next;
              })
            }
          >
            Clear the highlight
          </Anchor>
        </Group>
      )}
      <Text id="graph-canvas-help" className="visually-hidden">
        Arrow keys pan, plus and minus zoom. The list beside the canvas shows the selected entity and its neighbours.
      </Text>
      <Group align="stretch" gap="sm" wrap="wrap">
        <Paper
          withBorder
          radius="md"
          pos="relative"
          flex="1 1 480px"
          h={{ base: 'calc(100dvh - 180px)', sm: 'calc(100vh - 260px)' }}
          mih={360}
          style={{ overflow: 'hidden' }}
        >
          <Stack gap={4} pos="absolute" top={8} right={8} style={{ zIndex: 1 }}>
            <Tooltip label="Zoom in" position="left">
              <ActionIcon variant="default" size="lg" aria-label="Zoom in" onClick={() => canvas.current?.zoom(1)}>
                <IconZoomIn size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Zoom out" position="left">
              <ActionIcon variant="default" size="lg" aria-label="Zoom out" onClick={() => canvas.current?.zoom(-1)}>
                <IconZoomOut size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Show everything" position="left">
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="Show everything"
                onClick={() => canvas.current?.fit()}
              >
                <IconFocusCentered size={18} />
              </ActionIcon>
            </Tooltip>
          </Stack>
          <GraphCanvas
            ref={canvas}
            graph={graph ?? null}
            view={view}
            label={
              graph
                ? `Graph of ${countOf(graph.order, 'entity', 'entities')} and ${countOf(graph.size, 'relationship')}`
                : 'Graph, loading'
            }
            onSelect={(id) => select(id, false)}
            onMoved={moved}
            onFirstFrame={firstFrame}
          />
          {!graph && (
            <Center pos="absolute" inset={0}>
              <Loader aria-label="Loading the graph" />
            </Center>
          )}
          {graph && graph.order === 0 && (
            <Center pos="absolute" inset={0} p="md" bg="var(--mantine-color-body)">
              <Stack align="center" gap="xs">
                <Text fw={600}>No entities yet</Text>
                <Text c="dimmed" fz="sm" ta="center">
                  Add sources and confirm their extraction: the entities found appear here.
                </Text>
                <Button component={Link} to="/sources" size="xs">
                  Go to sources
                </Button>
              </Stack>
            </Center>
          )}
        </Paper>
        <Paper
          withBorder
          radius="md"
          p="sm"
          w={{ base: '100%', sm: 300 }}
          style={{ overflow: 'auto' }}
          mah={{ sm: 'calc(100vh - 260px)' }}
          component="aside"
          aria-label="Selected entity and legend"
        >
          <Stack gap="md">
            {graph && selectedPresent ? (
              <>
                <Neighbourhood
                  graph={graph}
                  selected={selected!}
                  typeName={typeName}
                  onSelect={(id) => {
                    setPath(null);
                    select(id);
                  }}
                  onOpen={openNode}
                  onExpand={(id) => void expand(id)}
                  expanding={expanding}
                />
                <Stack gap={6}>
                  <Select
                    aria-label="Path to"
                    placeholder="Path to another entity…"
                    leftSection={<IconRoute size={16} />}
                    searchable
                    clearable
                    searchValue={pathQuery}
                    onSearchChange={setPathQuery}
                    data={pathOptions}
                    filter={({ options }) => options}
                    nothingFoundMessage={pathQuery.trim() ? 'No entity with that name in the loaded graph' : undefined}
                    value={pathTarget}
                    onChange={findPath}
                    data-testid="path-target"
                  />
                  {path && path.nodes.length === 0 && (
                    <Text fz="sm" c="dimmed">
                      No path between them in the loaded graph.
                    </Text>
                  )}
                  {path && path.nodes.length > 0 && (
                    <Text fz="sm" data-testid="path">
                      {path.nodes.map((id, index) => (
                        <span key={id}>
                          {index > 0 && ' → '}
                          <Anchor component="button" type="button" fz="sm" onClick={() => select(id)}>
                            {graph.getNodeAttribute(id, 'label')}
                          </Anchor>
                        </span>
                      ))}
                    </Text>
                  )}
                </Stack>
              </>
            ) : (
              <Text fz="sm" c="dimmed">
                Select an entity on the canvas or find one by name to see its neighbours here.
              </Text>
            )}
            {legend.length > 0 && <GraphLegend entries={legend} hidden={hidden} onChange={setHidden} />}
          </Stack>
        </Paper>
      </Group>
    </Stack>
  );
}
