import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { formatCount } from '../../../lib/format.ts';
import type { DuplicateNode } from './proposals.ts';

/** One side of a proposed pair: what the entity is called, its type, aliases and how much rests on it. */
export function EntityCard({
  node,
  kept,
  onKeep,
  disabled,
}: {
  node: DuplicateNode;
  kept: boolean;
  onKeep: () => void;
  disabled: boolean;
}) {
  const titleId = `duplicate-entity-${node.id}`;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="section"
      aria-labelledby={titleId}
      style={{ borderColor: kept ? 'var(--mantine-primary-color-filled)' : undefined, borderWidth: kept ? 2 : 1 }}
      data-testid="duplicate-entity"
    >
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={2} fz="h3" id={titleId} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {node.label}
          </Title>
          {kept && (
            <Badge variant="filled" tt="none" leftSection={<IconCheck size={12} />} style={{ flexShrink: 0 }}>
              Kept
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Badge variant="light" color="gray" tt="none">
            {node.template_name}
          </Badge>
          <Anchor component={Link} to={`/graph?node=${encodeURIComponent(node.id)}`} fz="sm">
            Show in the graph<span className="visually-hidden">: {node.label}</span>
          </Anchor>
        </Group>
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {node.aliases.length ? (
            <>
              <Text span fz="sm" c="dimmed">
                Also called{' '}
              </Text>
              {node.aliases.join(' · ')}
            </>
          ) : (
            <Text span fz="sm" c="dimmed">
              No aliases
            </Text>
          )}
        </Text>
        <SimpleGrid cols={3} spacing="xs" component="dl" m={0}>
          {[
            ['Relationships', node.edge_count],
            ['Citations', node.citation_count],
            ['Sources', node.source_count],
          ].map(([label, count]) => (
            <div key={label}>
              <Text component="dt" fz="xs" c="dimmed">
                {label}
              </Text>
              <Text component="dd" fz="lg" fw={600} m={0}>
                {formatCount(count as number)}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        <Button
          mt="auto"
          variant={kept ? 'light' : 'default'}
          onClick={onKeep}
          disabled={disabled}
          aria-pressed={kept}
          leftSection={kept ? <IconCheck size={16} /> : undefined}
        >
          {kept ? 'This one is kept' : 'Keep this one'}
        </Button>
      </Stack>
    </Card>
  );
}
