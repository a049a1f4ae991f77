import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatDate } from '../../lib/format.ts';
import { ResponsiveTable, type ResponsiveColumn } from '../../components/ResponsiveTable.tsx';
import { SelectCheckbox } from '../../components/bulk/BulkBar.tsx';
import type { Selection } from '../../components/bulk/use-selection.ts';
import { TagBadge } from './EntityTags.tsx';
import type { Entity } from './use-entity-list.ts';

/** The confidence the extraction gave an entity (0–1) as a percentage; entities made by hand have none. */
export function confidenceOf(properties: Record<string, unknown>): string {
  const value = properties.confidence;
  return typeof value === 'number' ? `${Math.round(value * 100)} %` : '—';
}

/** One page of entities: name, type, tags, source, degree, confidence and last change, each with its checkbox. */
export function EntityTable({
  rows,
  selection,
  sourceTitles,
  typeName,
}: {
  rows: Entity[];
  selection: Selection;
  sourceTitles: Map<string, string>;
  typeName: (templateId: string) => string;
}) {
  const columns: ResponsiveColumn<Entity>[] = [
    {
      header: 'Select',
      hideHeader: true,
      phone: 'aside',
      width: 44,
      cell: (row) => <SelectCheckbox selection={selection} id={row.id} name={row.label} />,
    },
    {
      header: 'Name',
      phone: 'title',
      cell: (row) => (
        <Anchor component={Link} to={`/entities/${encodeURIComponent(row.id)}`} fw={500}>
          {row.label}
        </Anchor>
      ),
    },
    {
      header: 'Type',
      phone: 'detail',
      cell: (row) => (
        <Badge variant="light" tt="none">
          {typeName(row.template_id)}
        </Badge>
      ),
    },
    {
      header: 'Tags',
      phone: 'detail',
      cell: (row) =>
        row.tags?.length ? (
          <Group gap={4}>
            {row.tags.map((tag) => (
              <TagBadge key={tag.id} tag={tag} />
            ))}
          </Group>
        ) : (
          <Text fz="sm" c="dimmed" span>
            —
          </Text>
        ),
    },
    {
      header: 'Source',
      phone: 'detail',
      cell: (row) =>
        row.source_id ? (
          <Anchor component={Link} to={`/sources/${encodeURIComponent(row.source_id)}`} fz="sm">
            {sourceTitles.get(row.source_id) ?? 'Source'}
          </Anchor>
        ) : (
          <Text fz="sm" c="dimmed" span>
            Made by hand
          </Text>
        ),
    },
    { header: 'Degree', phone: 'detail', width: 80, cell: (row) => (row.edge_count ?? 0).toLocaleString() },
    { header: 'Confidence', phone: 'detail', width: 100, cell: (row) => confidenceOf(row.properties) },
    { header: 'Updated', phone: 'hidden', width: 210, cell: (row) => formatDate(row.updated_at) },
  ];
  return (
    <ResponsiveTable
      rows={rows}
      columns={columns}
      rowKey={(row) => row.id}
      label="Entities"
      highlightOnHover
      verticalSpacing={6}
    />
  );
}
