import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCategory, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { TemplateResponse, TemplateTypeName } from '@rhizome/contracts/api/templates';
import { countOf } from '../../lib/format.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { DeleteTemplateModal } from './DeleteTemplateModal.tsx';
import { TemplateIcon } from './TemplateIcon.tsx';
import { useTemplateUsage } from './template-usage.ts';
import { useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { templateEndpoints } from '@rhizome/contracts/api/templates';

type Shown = TemplateTypeName | 'all';

function usageText(template: TemplateResponse, usage: Map<string, number> | undefined): string {
  if (!usage) return '…';
  return countOf(usage.get(template.id) ?? 0, template.template_type === 'node' ? 'node' : 'edge');
}

/** Node and edge templates with how many nodes or edges use each; a row opens the editor. */
export default function TemplatesScreen() {
  const templates = useEndpointPages(templateEndpoints.list);
  const usage = useTemplateUsage(templates.data);
  const [shown, setShown] = useState<Shown>('node');
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<TemplateResponse | null>(null);

  const list = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (templates.data ?? [])
      .filter((template) => shown === 'all' || template.template_type === shown)
      .filter(
        (template) =>
          !needle ||
          template.name.toLowerCase().includes(needle) ||
          template.description?.toLowerCase().includes(needle),
      )
      .sort((a, b) => Number(a.is_system) - Number(b.is_system) || a.name.localeCompare(b.name));
  }, [templates.data, shown, search]);

  const deleted = () => {
    const name = deleting?.name ?? '';
    setDeleting(null);
    notifications.show({ color: 'teal', message: `The template “${templateLabel(name)}” is deleted.` });
  };

  return (
    <Stack gap="md">
      <PageHeader
        title="Templates"
        description="The types of your nodes and edges, and the properties each type carries."
      >
        <Button
          component={Link}
          to={`/templates/new${shown === 'edge' ? '?type=edge' : ''}`}
          leftSection={<IconPlus size={16} />}
        >
          New template
        </Button>
      </PageHeader>
      <Group gap="xs" align="flex-end">
        <SegmentedControl
          aria-label="Template type"
          value={shown}
          onChange={(value) => setShown(value as Shown)}
          data={[
            { value: 'node', label: 'Node types' },
            { value: 'edge', label: 'Edge types' },
            { value: 'all', label: 'All' },
          ]}
        />
        <TextInput
          aria-label="Search templates"
          placeholder="Search names and descriptions"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 260 }}
        />
      </Group>
      {templates.error && (
        <ErrorNotice
          title="Could not load the templates"
          message={templates.error}
          onRetry={() => void templates.reload()}
        />
      )}
      {usage.error && (
        <ErrorNotice
          title="Could not count how often each template is used"
          message={usage.error}
          onRetry={() => void usage.reload()}
        />
      )}
      {!templates.data && !templates.error && <Skeleton h={320} radius="md" />}
      {templates.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <IconCategory size={40} stroke={1.3} color="var(--mantine-color-dimmed)" />
          <Text fw={600} mt="xs">
            {search ? 'No template matches this search' : 'No templates of this kind yet'}
          </Text>
          <Text fz="sm" c="dimmed">
            Create one to give nodes or edges a type with its own properties.
          </Text>
        </Paper>
      )}
      {list.length > 0 && (
        <Table verticalSpacing="xs" highlightOnHover aria-label="Templates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Template</Table.Th>
              <Table.Th w={110} visibleFrom="sm">
                Properties
              </Table.Th>
              <Table.Th w={110} visibleFrom="sm">
                Used by
              </Table.Th>
              <Table.Th w={48}>
                <span className="visually-hidden">Delete</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((template) => (
              <Table.Tr key={template.id} data-template-id={template.id}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <TemplateIcon icon={template.icon} color={template.color} />
                    <div style={{ minWidth: 0 }}>
                      <Group gap={6} style={{ rowGap: 2 }}>
                        <Link
                          to={`/templates/${encodeURIComponent(template.id)}`}
                          className="source-link"
                          title={templateLabel(template.name) === template.name ? undefined : template.name}
                        >
                          {templateLabel(template.name)}
                        </Link>
                        {template.is_system && (
                          <Badge size="xs" variant="light" color="gray">
                            Built-in
                          </Badge>
                        )}
                        {shown === 'all' && (
                          <Badge
                            size="xs"
                            variant="outline"
                            color={template.template_type === 'node' ? 'blue' : 'grape'}
                          >
                            {template.template_type}
                          </Badge>
                        )}
                      </Group>
                      {template.description && (
                        <Text fz="xs" c="dimmed" lineClamp={2}>
                          {template.description}
                        </Text>
                      )}
                      <Text fz="xs" c="dimmed" hiddenFrom="sm">
                        {template.properties.length
                          ? countOf(template.properties.length, 'property', 'properties')
                          : 'No properties'}{' '}
                        · used by {usageText(template, usage.data)}
                      </Text>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td visibleFrom="sm">{template.properties.length.toLocaleString()}</Table.Td>
                <Table.Td visibleFrom="sm" data-testid="template-usage" style={{ whiteSpace: 'nowrap' }}>
                  {usageText(template, usage.data)}
                </Table.Td>
                <Table.Td>
                  {!template.is_system && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${templateLabel(template.name)}`}
                      onClick={() => setDeleting(template)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <DeleteTemplateModal template={deleting} onClose={() => setDeleting(null)} onDeleted={deleted} />
    </Stack>
  );
}
