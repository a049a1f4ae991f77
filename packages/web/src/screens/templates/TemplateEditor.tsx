import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Card,
  ColorInput,
  Group,
  Input,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { templateEndpoints, type TemplateResponse, type TemplateTypeName } from '@rhizome/contracts/api/templates';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { DeleteTemplateModal } from './DeleteTemplateModal.tsx';
import { definitionsOf, draftOf, emptyDraft, type DraftErrors, type PropertyDraft } from './property-drafts.ts';
import { PropertyEditor } from './PropertyEditor.tsx';
import { TemplateIcon, templateIcons } from './TemplateIcon.tsx';
import { useEndpointPages, useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

interface Fields {
  name: string;
  template_type: TemplateTypeName;
  description: string;
  icon: string | null;
  color: string;
}

const kinds = [
  { value: 'node', label: 'Node type' },
  { value: 'edge', label: 'Edge type' },
];
const swatches = ['#2563eb', '#7c3aed', '#db2777', '#dc2626', '#d97706', '#059669', '#0891b2', '#64748b'];
const iconOptions = Object.keys(templateIcons).map((value) => ({ value, label: value }));

function fieldsOf(template: TemplateResponse | undefined, type: TemplateTypeName): Fields {
  return {
    name: template?.name ?? '',
    template_type: template?.template_type ?? type,
    description: template?.description ?? '',
    icon: template?.icon ?? null,
    color: template?.color ?? '',
  };
}

/** Where the API's validation issues belong: a top-level field, or a field of the property at an index. */
function placeIssues(
  error: RequestError,
  drafts: PropertyDraft[],
): { top: Record<string, string>; properties: DraftErrors } {
  const top: Record<string, string> = {};
  const properties: DraftErrors = {};
  for (const issue of error.issues) {
    const [, field, index, property] = issue.loc;
    if (field === 'properties' && typeof index === 'number' && drafts[index] && typeof property === 'string') {
      const key = drafts[index].key;
      properties[key] = { ...properties[key], [property]: issue.msg };
    } else if (typeof field === 'string') top[field] = issue.msg;
  }
  return { top, properties };
}

/** Brings the first field marked invalid into view, once the marks are rendered. */
function focusFirstInvalid() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('main [aria-invalid="true"]')?.focus());
}

/** Creates a template (route /templates/new) or edits one: its look, and its property definitions. */
export default function TemplateEditor() {
  const { templateId = 'new' } = useParams();
  const [searchParams] = useSearchParams();
  const creating = templateId === 'new';
  const navigate = useNavigate();
  const template = useEndpoint(templateEndpoints.get, creating ? null : { params: { template_id: templateId } });
  const create = useAction(templateEndpoints.create);
  const update = useAction(templateEndpoints.update);
  const all = useEndpointPages(templateEndpoints.list);
  const [fields, setFields] = useState<Fields>(() =>
    fieldsOf(undefined, searchParams.get('type') === 'edge' ? 'edge' : 'node'),
  );
  const [drafts, setDrafts] = useState<PropertyDraft[]>([]);
  const [topErrors, setTopErrors] = useState<Record<string, string>>({});
  const [propertyErrors, setPropertyErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<TemplateResponse | null>(null);

  useEffect(() => {
    if (!template.data) return;
    setFields(fieldsOf(template.data, template.data.template_type));
    setDrafts(template.data.properties.map(draftOf));
  }, [template.data]);

  const nodeTemplates = useMemo(
    () =>
      (all.data ?? [])
        .filter((entry) => entry.template_type === 'node')
        .map((entry) => ({ value: entry.id, label: entry.name })),
    [all.data],
  );
  const change = (patch: Partial<Fields>) => setFields((current) => ({ ...current, ...patch }));
  const updateDraft = (key: string, next: PropertyDraft) =>
    setDrafts((current) => current.map((draft) => (draft.key === key ? next : draft)));
  const move = (index: number, offset: -1 | 1) =>
    setDrafts((current) => {
      const next = [...current];
      [next[index], next[index + offset]] = [next[index + offset], next[index]];
      return next;
    });

  async function save(event: FormEvent) {
    event.preventDefault();
    const { definitions, errors } = definitionsOf(drafts);
    const top: Record<string, string> = fields.name.trim() ? {} : { name: 'Give the template a name' };
    setTopErrors(top);
    setPropertyErrors(errors);
    setFailure(null);
    if (Object.keys(errors).length || Object.keys(top).length) {
      setFailure('Some fields need attention: they are marked below.');
      focusFirstInvalid();
      return;
    }
    const body = {
      name: fields.name.trim(),
      description: fields.description.trim() || null,
      icon: fields.icon,
      color: fields.color || null,
      properties: definitions,
    };
    setBusy(true);
    try {
      if (creating) {
        const created = await create.run({
          body: { ...body, template_type: fields.template_type },
        });
        notifications.show({ color: 'teal', message: `The template “${templateLabel(created.name)}” is created.` });
        navigate(`/templates/${encodeURIComponent(created.id)}`, { replace: true });
      } else {
        const { name, ...rest } = body;
        const saved = await update.run({
          params: { template_id: templateId },
          body: template.data?.is_system ? rest : { name, ...rest },
        });
        notifications.show({ color: 'teal', message: `The template “${templateLabel(saved.name)}” is saved.` });
      }
    } catch (error) {
      if (error instanceof RequestError) {
        const placed = placeIssues(error, drafts);
        setTopErrors(placed.top);
        setPropertyErrors(placed.properties);
        setFailure(error.issues.length ? `${error.message}: the fields are marked below.` : error.message);
        focusFirstInvalid();
      } else setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const title = creating ? 'New template' : template.data ? templateLabel(template.data.name) : 'Template';
  if (template.error)
    return (
      <ErrorNotice
        title="Could not load the template"
        message={template.error}
        onRetry={() => void template.reload()}
      />
    );
  if (!creating && !template.data) return <Skeleton h={400} radius="md" />;
  const system = template.data?.is_system ?? false;

  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <Stack gap="md">
        <Breadcrumbs>
          <Anchor component={Link} to="/templates" fz="sm">
            Templates
          </Anchor>
          <Text fz="sm">{title}</Text>
        </Breadcrumbs>
        <Group justify="space-between" align="flex-end">
          <Group gap="xs" wrap="nowrap">
            <TemplateIcon icon={fields.icon} color={fields.color || null} size={28} />
            <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
              {title}
            </Title>
          </Group>
          <Group gap="xs">
            {!creating && !system && (
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDeleting(template.data ?? null)}
              >
                Delete…
              </Button>
            )}
            <Button type="submit" loading={busy}>
              {creating ? 'Create template' : 'Save changes'}
            </Button>
          </Group>
        </Group>
        {failure && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title="The template was not saved" role="alert">
            {failure}
          </Alert>
        )}
        <Card withBorder radius="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
            <TextInput
              label="Name"
              required
              value={fields.name}
              disabled={system}
              description={system ? 'Built-in templates keep their name' : undefined}
              onChange={(event) => change({ name: event.currentTarget.value })}
              error={topErrors.name}
            />
            <div>
              <Input.Label id="template-kind">Kind</Input.Label>
              <Input.Description id="template-kind-help" mb={6}>
                {creating
                  ? 'Nodes are the entities, edges the relationships between them'
                  : 'Fixed once the template exists: what it types stays a node or an edge'}
              </Input.Description>
              {creating ? (
                <SegmentedControl
                  aria-labelledby="template-kind"
                  aria-describedby="template-kind-help"
                  value={fields.template_type}
                  onChange={(value) => change({ template_type: value as TemplateTypeName })}
                  data={kinds}
                />
              ) : (
                <Group gap={6} data-testid="template-kind">
                  <IconLock size={14} aria-hidden />
                  <Text fz="sm">{kinds.find((kind) => kind.value === fields.template_type)?.label}</Text>
                </Group>
              )}
            </div>
            <ColorInput
              label="Colour"
              format="hex"
              eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen' }}
              swatches={swatches}
              placeholder="#2563eb"
              value={fields.color}
              onChange={(color) => change({ color })}
              error={topErrors.color}
            />
            <Select
              label="Icon"
              data={iconOptions}
              value={fields.icon}
              clearable
              searchable
              placeholder="No icon"
              onChange={(icon) => change({ icon })}
              error={topErrors.icon}
              leftSection={<TemplateIcon icon={fields.icon} color={fields.color || null} size={16} />}
              renderOption={({ option }) => (
                <Group gap="xs">
                  <TemplateIcon icon={option.value} color={fields.color || null} size={16} />
                  {option.label}
                </Group>
              )}
            />
            <Textarea
              label="Description"
              value={fields.description}
              onChange={(event) => change({ description: event.currentTarget.value })}
              autosize
              minRows={2}
              maxRows={6}
              error={topErrors.description}
              style={{ gridColumn: '1 / -1' }}
            />
          </SimpleGrid>
        </Card>
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} fz="lg">
              Properties
            </Title>
            <Text fz="sm" c="dimmed">
              What every {fields.template_type === 'node' ? 'node' : 'edge'} of this type can carry. Values are checked
              against these rules when they are saved.
            </Text>
          </div>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setDrafts((current) => [...current, emptyDraft()])}
          >
            Add a property
          </Button>
        </Group>
        {drafts.length === 0 && (
          <Paper withBorder p="lg" radius="md" ta="center">
            <Text fz="sm" c="dimmed">
              No properties: {fields.template_type === 'node' ? 'nodes' : 'edges'} of this type have a label only.
            </Text>
          </Paper>
        )}
        {drafts.map((draft, index) => (
          <PropertyEditor
            key={draft.key}
            draft={draft}
            index={index}
            count={drafts.length}
            errors={propertyErrors[draft.key] ?? {}}
            nodeTemplates={nodeTemplates}
            onChange={(next) => updateDraft(draft.key, next)}
            onMove={(offset) => move(index, offset)}
            onRemove={() => setDrafts((current) => current.filter((entry) => entry.key !== draft.key))}
          />
        ))}
        {drafts.length > 0 && (
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              {creating ? 'Create template' : 'Save changes'}
            </Button>
          </Group>
        )}
        <DeleteTemplateModal
          template={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            notifications.show({
              color: 'teal',
              message: `The template “${deleting ? templateLabel(deleting.name) : ''}” is deleted.`,
            });
            navigate('/templates');
          }}
        />
      </Stack>
    </form>
  );
}
