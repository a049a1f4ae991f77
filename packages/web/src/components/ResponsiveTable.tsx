import type { ReactNode } from 'react';
import { Box, Group, Paper, Stack, Table, Text, type TableProps } from '@mantine/core';
import { usePhone } from '../lib/use-phone.ts';

export interface ResponsiveColumn<Row> {
  /** The column heading, and on a phone the label in front of a `detail` value. */
  header: string;
  /** The heading is read by screen readers only (an actions column, say). */
  hideHeader?: boolean;
  cell: (row: Row) => ReactNode;
  /**
   * Where the column goes on a phone, where each row becomes a card: the card's `title`, `aside` it (a status,
   * actions), a labelled `detail` line below, or `hidden` (left to wider screens and the detail page).
   */
  phone: 'title' | 'aside' | 'detail' | 'hidden';
  width?: number | string;
}

/**
 * A table on wide screens and a list of cards on a phone, so no row ever has to be scrolled sideways
 * there. Each column says once where it belongs on a phone.
 */
export function ResponsiveTable<Row>({
  rows,
  columns,
  rowKey,
  label,
  ...tableProps
}: {
  rows: Row[];
  columns: ResponsiveColumn<Row>[];
  rowKey: (row: Row) => string;
  /** What the rows are, for screen readers ("Recent sources"). */
  label: string;
} & Omit<TableProps, 'data' | 'children'>) {
  const phone = usePhone();
  if (!phone)
    return (
      <Table aria-label={label} {...tableProps}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.header} w={column.width}>
                {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  const placed = (place: ResponsiveColumn<Row>['phone']) => columns.filter((column) => column.phone === place);
  return (
    <Stack gap="xs" component="ul" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
      {rows.map((row) => (
        <Paper key={rowKey(row)} component="li" withBorder radius="md" p="sm" data-testid="responsive-card">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Box miw={0} style={{ flex: 1, overflowWrap: 'anywhere' }}>
              {placed('title').map((column) => (
                <Box key={column.header}>{column.cell(row)}</Box>
              ))}
            </Box>
            {placed('aside').map((column) => (
              <Box key={column.header} style={{ flexShrink: 0 }}>
                {column.cell(row)}
              </Box>
            ))}
          </Group>
          {placed('detail').map((column) => {
            const value = column.cell(row);
            // An empty cell (no error, say) is no line at all on a card.
            if (value === null || value === undefined || value === false || value === '') return null;
            return (
              <Group key={column.header} gap={6} mt={4} wrap="nowrap" fz="xs">
                <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {column.header}
                </Text>
                <Box miw={0} style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Box>
              </Group>
            );
          })}
        </Paper>
      ))}
    </Stack>
  );
}
