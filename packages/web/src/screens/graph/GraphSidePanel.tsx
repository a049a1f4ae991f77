import { useMemo, useState } from 'react';
import { Anchor, Paper, Select, Stack, Text } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { findNodes, type KnowledgeGraph } from '../../lib/graph-model.ts';
import { GraphLegend, type LegendEntry } from './GraphLegend.tsx';
import { Neighbourhood } from './Neighbourhood.tsx';
import type { useGraphWalk } from './use-graph-walk.ts';

/** The text alternative to the canvas: the selected entity with its neighbours, a path from it, and the legend. */
export function GraphSidePanel({
  graph,
  walk,
  legend,
  typeName,
  onOpen,
  onEditEdge,
}: {
  graph: KnowledgeGraph | undefined;
  walk: ReturnType<typeof useGraphWalk>;
  legend: LegendEntry[];
  typeName: (templateId: string) => string;
  onOpen: (id: string) => void;
  onEditEdge: (id: string) => void;
}) {
  const { selected, path, pathTarget } = walk;
  const [pathQuery, setPathQuery] = useState('');
  // Found as typed, like the search: a list of every entity would cost a render of thousands of options.
  const pathOptions = useMemo(() => {
    if (!graph) return [];
    const options = findNodes(graph, pathQuery)
      .filter((match) => match.id !== selected)
      .map((match) => ({ value: match.id, label: match.label }));
    if (pathTarget && graph.hasNode(pathTarget) && !options.some((option) => option.value === pathTarget))
      options.unshift({ value: pathTarget, label: graph.getNodeAttribute(pathTarget, 'label') });
    return options;
  }, [graph, pathQuery, pathTarget, selected, walk.version]);
  const present = graph && selected !== null && graph.hasNode(selected) ? selected : null;

  return (
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
        {graph && present ? (
          <>
            <Neighbourhood
              graph={graph}
              version={walk.version}
              selected={present}
              typeName={typeName}
              onSelect={(id) => {
                walk.clearPath();
                walk.select(id);
              }}
              onOpen={onOpen}
              onEditEdge={onEditEdge}
              onExpand={(id) => void walk.expand(id)}
              expanding={walk.expanding}
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
                onChange={walk.findPath}
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
                      <Anchor component="button" type="button" fz="sm" onClick={() => walk.select(id)}>
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
        {legend.length > 0 && <GraphLegend entries={legend} hidden={walk.hidden} onChange={walk.setHidden} />}
      </Stack>
    </Paper>
  );
}
