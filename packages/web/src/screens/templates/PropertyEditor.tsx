import {
  ActionIcon,
  Badge,
  Card,
  Group,
  JsonInput,
  MultiSelect,
  Select,
  SimpleGrid,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { propertyTypeNames, type PropertyTypeName } from '@rhizome/contracts/api/templates';
import { nameFrom, patternTypes, propertyTypeLabels, referenceTypes, type PropertyDraft } from './property-drafts.ts';

const typeOptions = propertyTypeNames.map((value) => ({ value, label: `${propertyTypeLabels[value]} (${value})` }));

interface Props {
  draft: PropertyDraft;
  index: number;
  count: number;
  errors: Partial<Record<string, string>>;
  nodeTemplates: { value: string; label: string }[];
  onChange: (draft: PropertyDraft) => void;
  onMove: (offset: -1 | 1) => void;
  onRemove: () => void;
}

/** One property definition: its names, type, whether it is required, its default and the rules of its type. */
export function PropertyEditor({ draft, index, count, errors, nodeTemplates, onChange, onMove, onRemove }: Props) {
  const title = draft.display_name.trim() || `Property ${index + 1}`;
  const change = (patch: Partial<PropertyDraft>) => onChange({ ...draft, ...patch });
  const setDisplayName = (display_name: string) =>
    change({ display_name, ...(draft.nameEdited ? {} : { name: nameFrom(display_name) }) });
  const setType = (property_type: PropertyTypeName) => change({ property_type, defaultText: '' });

  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      component="section"
      aria-label={draft.display_name.trim() ? `Property ${title}` : title}
      data-property-key={draft.key}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Text fw={600} fz="sm" truncate>
            {title}
          </Text>
          {draft.required && (
            <Badge size="xs" variant="light" color="red">
              Required
            </Badge>
          )}
        </Group>
        <Group gap={2} wrap="nowrap">
          <Tooltip label="Move up">
            <ActionIcon
              variant="subtle"
              color="gray"
              disabled={index === 0}
              onClick={() => onMove(-1)}
              aria-label={`Move ${title} up`}
            >
              <IconArrowUp size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Move down">
            <ActionIcon
              variant="subtle"
              color="gray"
              disabled={index === count - 1}
              onClick={() => onMove(1)}
              aria-label={`Move ${title} down`}
            >
              <IconArrowDown size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Remove">
            <ActionIcon variant="subtle" color="red" onClick={onRemove} aria-label={`Remove ${title}`}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
        <TextInput
          label="Display name"
          required
          value={draft.display_name}
          onChange={(event) => setDisplayName(event.currentTarget.value)}
          error={errors.display_name}
        />
        <TextInput
          label="Key"
          description="How the property is stored and referenced"
          required
          value={draft.name}
          onChange={(event) => change({ name: event.currentTarget.value, nameEdited: true })}
          error={errors.name}
        />
        <Select
          label="Type"
          data={typeOptions}
          value={draft.property_type}
          allowDeselect={false}
          onChange={(value) => value && setType(value as PropertyTypeName)}
          error={errors.property_type}
        />
        <Switch
          label="Required when creating a node or edge"
          checked={draft.required}
          onChange={(event) => change({ required: event.currentTarget.checked })}
          mt={{ base: 0, sm: 30 }}
        />
        {draft.property_type === 'enum' && (
          <TagsInput
            label="Allowed values"
            description="Type a value and press Enter"
            required
            value={draft.enum_values}
            onChange={(enum_values) => change({ enum_values })}
            error={errors.enum_values}
            clearable
          />
        )}
        {patternTypes.has(draft.property_type) && (
          <TextInput
            label="Validation pattern"
            description="A regular expression values must match, e.g. ^[A-Z]{3}-\d+$"
            value={draft.validation_pattern}
            onChange={(event) => change({ validation_pattern: event.currentTarget.value })}
            error={errors.validation_pattern}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
        {referenceTypes.has(draft.property_type) && (
          <MultiSelect
            label="Allowed node types"
            description="Empty: any node"
            data={nodeTemplates}
            value={draft.allowed_node_types}
            onChange={(allowed_node_types) => change({ allowed_node_types })}
            error={errors.allowed_node_types}
            searchable
            clearable
          />
        )}
        <DefaultInput draft={draft} error={errors.default_value} onChange={(defaultText) => change({ defaultText })} />
        <Textarea
          label="Description"
          value={draft.description}
          onChange={(event) => change({ description: event.currentTarget.value })}
          autosize
          minRows={1}
          maxRows={4}
          error={errors.description}
        />
      </SimpleGrid>
    </Card>
  );
}

/** The default value, entered the way its type is: a list for enums, yes/no for booleans, JSON for structured values. */
function DefaultInput({
  draft,
  error,
  onChange,
}: {
  draft: PropertyDraft;
  error?: string;
  onChange: (text: string) => void;
}) {
  const common = { label: 'Default value', error, value: draft.defaultText };
  switch (draft.property_type) {
    case 'boolean':
      return (
        <Select
          {...common}
          placeholder="No default"
          data={[
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]}
          clearable
          onChange={(value) => onChange(value ?? '')}
          value={draft.defaultText || null}
        />
      );
    case 'enum':
      return (
        <Select
          {...common}
          placeholder="No default"
          data={[...new Set(draft.enum_values)]}
          clearable
          onChange={(value) => onChange(value ?? '')}
          value={draft.defaultText || null}
        />
      );
    case 'json':
    case 'node_reference_list':
      return (
        <JsonInput
          {...common}
          placeholder={draft.property_type === 'json' ? '{"any": "JSON"}' : '["node id", "node id"]'}
          autosize
          minRows={2}
          maxRows={8}
          onChange={onChange}
        />
      );
    case 'text':
      return (
        <Textarea
          {...common}
          autosize
          minRows={1}
          maxRows={4}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'date':
      return <TextInput {...common} type="date" onChange={(event) => onChange(event.currentTarget.value)} />;
    case 'datetime':
      return (
        <TextInput
          {...common}
          placeholder="2025-05-01T12:30:00Z"
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'integer':
    case 'float':
      return (
        <TextInput
          {...common}
          inputMode={draft.property_type === 'integer' ? 'numeric' : 'decimal'}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'node_reference':
      return (
        <TextInput {...common} placeholder="A node id" onChange={(event) => onChange(event.currentTarget.value)} />
      );
    default:
      return <TextInput {...common} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
}
