import { memo, useMemo, useRef } from 'react';
import { ActionIcon, Anchor, Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconPencil } from '@tabler/icons-react';
import { countOf } from '../../lib/format.ts';
import type { KnowledgeGraph } from '../../lib/graph-model.ts';

export interface NeighbourItem {
  id: string;
  edgeId: string;
  label: string;
  /** The relationship as read ("works at") and as stored (`works_at`). */
  relationship: string;
  relationshipType: string;
  direction: 'outgoing' | 'incoming';
}

/** The selected node's edges in the loaded graph, outgoing first, then by relationship and label. */
export function neighboursOf(graph: KnowledgeGraph, id: string): NeighbourItem[] {
  const items: NeighbourItem[] = [];
  graph.forEachEdge(id, (edgeId, attributes, source, target) => {
    const outgoing = source === id;
    const other = outgoing ? target : source;
    items.push({
      id: other,
      edgeId,
      label: graph.getNodeAttribute(other, 'label'),
      relationship: attributes.label,
      relationshipType: attributes.relationship,
      direction: outgoing ? 'outgoing' : 'incoming',
    });
  });
  return items.sort(
    (a, b) =>
      a.direction.localeCompare(b.direction) * -1 ||
      a.relationship.localeCompare(b.relationship) ||
      a.label.localeCompare(b.label),
  );
}

/**
 * The text alternative of the canvas: the selected node and its neighbours as a list of buttons (Tab and
 * Enter walk the graph the way clicks on the canvas do), each relationship with its edit button.
 *
 * The list is worked out and drawn again only when the selection or the graph (`version`) changes: a hub
 * has hundreds of rows, and the screen renders again at every dialog opened or edit saved on the canvas.
 */
export function Neighbourhood({
  graph,
  version,
  selected,
  typeName,
  onSelect,
  onOpen,
  onEditEdge,
  onExpand,
  expanding,
}: {
  graph: KnowledgeGraph;
  /** Changes when the graph changed in place. */
  version: number;
  selected: string;
  typeName: (templateId: string) => string;
  onSelect: (id: string) => void;
  onOpen: (id: string) => void;
  onEditEdge: (edgeId: string) => void;
  onExpand: (id: string) => void;
  expanding: boolean;
}) {
  const attributes = graph.getNodeAttributes(selected);
  const items = useMemo(() => neighboursOf(graph, selected), [graph, selected, version]);
  // The rows call the latest handlers without taking new ones (which would draw them all again).
  const handlers = useRef({ onSelect, onEditEdge });
  handlers.current = { onSelect, onEditEdge };
  const rowHandlers = useMemo(
    () => ({
      onSelect: (id: string) => handlers.current.onSelect(id),
      onEditEdge: (id: string) => handlers.current.onEditEdge(id),
    }),
    [],
  );
  return (
    <Stack gap="xs" data-testid="neighbourhood">
      <div>
        <Title order={2} fz="md">
          {attributes.label}
        </Title>
        <Badge variant="light" tt="none" mt={4}>
          {typeName(attributes.templateId)}
        </Badge>
      </div>
      <Group gap="xs">
        <Button size="xs" onClick={() => onOpen(selected)}>
          Open details
        </Button>
        <Button size="xs" variant="default" loading={expanding} onClick={() => onExpand(selected)}>
          Expand neighbours
        </Button>
      </Group>
      <Text fz="sm" c="dimmed" id="neighbourhood-caption">
        {items.length === 0
          ? 'No connections in the loaded graph.'
          : `${countOf(items.length, 'connection')} in the loaded graph`}
      </Text>
      {items.length > 0 && <NeighbourList items={items} {...rowHandlers} />}
    </Stack>
  );
}

/** The neighbours' rows, drawn again only for a new list. */
const NeighbourList = memo(function NeighbourList({
  items,
  onSelect,
  onEditEdge,
}: {
  items: NeighbourItem[];
  onSelect: (id: string) => void;
  onEditEdge: (edgeId: string) => void;
}) {
  return (
    <List listStyleType="none" spacing={2} aria-labelledby="neighbourhood-caption" size="sm">
      {items.map((item) => (
        <List.Item key={item.edgeId}>
          <Group gap={4} wrap="nowrap" align="baseline">
            {item.direction === 'outgoing' ? (
              <IconArrowRight size={12} aria-label="outgoing" />
            ) : (
              <IconArrowLeft size={12} aria-label="incoming" />
            )}
            <Text span fz="xs" c="dimmed" title={item.relationshipType}>
              {item.relationship}
            </Text>
            <Anchor component="button" type="button" fz="sm" ta="left" onClick={() => onSelect(item.id)}>
              {item.label}
            </Anchor>
            <ActionIcon
              variant="subtle"
              size="sm"
              ml="auto"
              aria-label={`Edit the relationship ${item.relationship} ${item.label}`}
              onClick={() => onEditEdge(item.edgeId)}
            >
              <IconPencil size={14} />
            </ActionIcon>
          </Group>
        </List.Item>
      ))}
    </List>
  );
});
