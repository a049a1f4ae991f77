import { Alert, Badge, Group, List, Table, Text } from '@mantine/core';
import { countOf } from '../../lib/format.ts';

/** What an import task reports (its result): counts per kind, and what went wrong or was odd. */
export interface ImportReport {
  success?: boolean;
  package_name?: string;
  package_version?: string;
  merge?: boolean;
  checksum_verified?: boolean;
  errors?: string[];
  warnings?: string[];
  [count: string]: unknown;
}

const kinds: [string, string][] = [
  ['templates', 'Templates'],
  ['nodes', 'Nodes'],
  ['edges', 'Edges'],
  ['sources', 'Sources'],
  ['chunks', 'Passages'],
  ['citations', 'Citations'],
  ['tags', 'Tags'],
  ['workflows', 'Workflows'],
  ['triggers', 'Triggers'],
];

const count = (report: ImportReport, key: string) => (typeof report[key] === 'number' ? (report[key] as number) : null);
const shownCount = (report: ImportReport, key: string) => count(report, key)?.toLocaleString() ?? '—';

/** The import report: imported, updated and skipped per kind, with the errors and warnings. */
export function OpsImportReport({ report }: { report: ImportReport }) {
  const rows = kinds.filter(([key]) =>
    [`${key}_imported`, `${key}_updated`, `${key}_skipped`].some((name) => count(report, name) !== null),
  );
  const errors = report.errors ?? [];
  const warnings = report.warnings ?? [];
  return (
    <div aria-label="Import report" role="region">
      <Group gap="xs" mb="xs">
        <Text fw={600} fz="sm">
          {report.package_name ?? 'Package'} {report.package_version ? `v${report.package_version}` : ''}
        </Text>
        <Badge variant="light" color={errors.length ? 'red' : 'teal'}>
          {errors.length ? 'Imported with errors' : 'Imported'}
        </Badge>
        {report.merge !== undefined && (
          <Badge variant="light" color="gray">
            {report.merge ? 'Merged' : 'Replaced'}
          </Badge>
        )}
        {report.checksum_verified && (
          <Badge variant="light" color="gray">
            Checksum verified
          </Badge>
        )}
      </Group>
      <List size="sm" hiddenFrom="sm" listStyleType="none" aria-label="Counts per kind">
        {rows.map(([key, label]) => (
          <List.Item key={key}>
            <Text span fz="sm" fw={600}>
              {label}
            </Text>
            <Text span fz="sm" c="dimmed">
              {' '}
              · {shownCount(report, `${key}_imported`)} imported · {shownCount(report, `${key}_updated`)} updated ·{' '}
              {shownCount(report, `${key}_skipped`)} skipped
            </Text>
          </List.Item>
        ))}
      </List>
      <Table.ScrollContainer minWidth={280} visibleFrom="sm">
        <Table fz="sm" verticalSpacing={4} withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Kind</Table.Th>
              <Table.Th ta="right">Imported</Table.Th>
              <Table.Th ta="right">Updated</Table.Th>
              <Table.Th ta="right">Skipped</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(([key, label]) => (
              <Table.Tr key={key}>
                <Table.Td>{label}</Table.Td>
                <Table.Td ta="right">{shownCount(report, `${key}_imported`)}</Table.Td>
                <Table.Td ta="right">{shownCount(report, `${key}_updated`)}</Table.Td>
                <Table.Td ta="right">{shownCount(report, `${key}_skipped`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {(count(report, 'embeddings_restored') ?? 0) + (count(report, 'embeddings_pending') ?? 0) > 0 && (
        <Text fz="xs" c="dimmed" mt={4}>
          {countOf(count(report, 'embeddings_restored') ?? 0, 'vector')} restored,{' '}
          {countOf(count(report, 'embeddings_pending') ?? 0, 'vector')} being computed in the background.
        </Text>
      )}
      {errors.length > 0 && (
        <Alert color="red" mt="sm" title="Errors">
          <List size="sm">
            {errors.map((error) => (
              <List.Item key={error}>{error}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" mt="sm" title="Warnings">
          <List size="sm">
            {warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </div>
  );
}
