import { Button, Checkbox, Collapse, Group, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustments } from '@tabler/icons-react';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { filteringModes } from '@rhizome/contracts/settings';
import { sentenceCase } from '../../lib/sentence-case.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import {
  defaultChoices,
  detectThenConfirm,
  detectThenStart,
  type Override,
  type UploadChoices,
} from './upload-options.ts';

const overrides: { value: Override; label: string }[] = [
  { value: 'default', label: 'As in settings' },
  { value: 'on', label: 'On' },
  { value: 'off', label: 'Off' },
];

/** The settings' own filtering mode, shown beside "as in settings" (the open settings object, read defensively). */
function settingsFilteringMode(settings: Record<string, unknown> | undefined): string | null {
  const extraction = settings?.extraction as { extraction_filtering_mode?: unknown } | undefined;
  return typeof extraction?.extraction_filtering_mode === 'string' ? extraction.extraction_filtering_mode : null;
}

/** One line saying what the next upload does, for the closed panel. */
function summaryOf(choices: UploadChoices, settingsMode: string | null): string {
  if (!choices.extract) return 'Index only: no extraction';
  const domain =
    choices.domain === detectThenConfirm
      ? 'domain detected, confirmed by you'
      : choices.domain === detectThenStart
        ? 'domain detected and used'
        : `domain ${sentenceCase(choices.domain)}`;
  const filtering = choices.filteringMode ?? `${settingsMode ?? 'settings'} (settings)`;
  return `${choices.depth === 'quick' ? 'Quick' : 'Full'} analysis, ${domain}, ${filtering} filtering`;
}

/** What the next upload or import asks of the pipeline, the defaults shown; remembered in this browser. */
export function UploadOptions({
  choices,
  onChange,
  onReset,
}: {
  choices: UploadChoices;
  onChange: (change: Partial<UploadChoices>) => void;
  onReset: () => void;
}) {
  const [opened, { toggle }] = useDisclosure(false);
  const domains = useEndpoint(sourceEndpoints.domains);
  const settings = useEndpoint(settingsEndpoints.get);
  const settingsMode = settingsFilteringMode(settings.data);
  const changed = JSON.stringify(choices) !== JSON.stringify(defaultChoices);
  const extractionOff = !choices.extract;

  return (
    <Stack gap="xs" mt="sm">
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text fz="sm" c="dimmed" data-testid="upload-summary" style={{ minWidth: 0 }}>
          {summaryOf(choices, settingsMode)}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconAdjustments size={16} />}
          onClick={toggle}
          aria-expanded={opened}
          aria-controls="upload-options"
          style={{ flexShrink: 0 }}
        >
          {opened ? 'Hide options' : 'Options'}
        </Button>
      </Group>
      <Collapse expanded={opened} id="upload-options">
        <Stack gap="sm">
          <Checkbox
            label="Extract entities and relationships after indexing"
            checked={choices.extract}
            onChange={(event) => onChange({ extract: event.currentTarget.checked })}
          />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            <Select
              label="Domain"
              description="The entity and relationship types extraction uses"
              disabled={extractionOff}
              allowDeselect={false}
              value={choices.domain}
              onChange={(value) => value && onChange({ domain: value })}
              data={[
                {
                  group: 'Detect from the text',
                  items: [
                    { value: detectThenConfirm, label: 'Detect, then ask me (default)' },
                    { value: detectThenStart, label: 'Detect and start at once' },
                  ],
                },
                {
                  group: 'Always use',
                  items: (domains.data?.domains ?? []).map((domain) => ({
                    value: domain.name,
                    label: sentenceCase(domain.name),
                  })),
                },
              ]}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="Filtering mode"
              description="How strictly weak entities and relationships are dropped"
              disabled={extractionOff}
              allowDeselect={false}
              value={choices.filteringMode ?? 'settings'}
              onChange={(value) =>
                onChange({
                  filteringMode: value === 'settings' ? null : (value as UploadChoices['filteringMode']),
                })
              }
              data={[
                { value: 'settings', label: `As in settings${settingsMode ? ` (${settingsMode})` : ''}` },
                ...filteringModes.map((mode) => ({ value: mode, label: sentenceCase(mode) })),
              ]}
              comboboxProps={{ withinPortal: true }}
            />
            <Stack gap={4}>
              <Text fz="sm" fw={500} id="upload-depth-label">
                Analysis
              </Text>
              <SegmentedControl
                aria-labelledby="upload-depth-label"
                disabled={extractionOff}
                value={choices.depth}
                onChange={(value) => onChange({ depth: value as UploadChoices['depth'] })}
                data={[
                  { value: 'full', label: 'Full (default)' },
                  { value: 'quick', label: 'Quick' },
                ]}
              />
            </Stack>
            <OverrideControl
              label="Vision (images and scanned pages)"
              value={choices.vision}
              onChange={(vision) => onChange({ vision })}
            />
            <OverrideControl
              label="Text normalisation"
              value={choices.normalisation}
              onChange={(normalisation) => onChange({ normalisation })}
            />
          </SimpleGrid>
          <Group gap="lg">
            <Checkbox
              label="Content filtering (default on)"
              disabled={extractionOff}
              checked={choices.contentFiltering}
              onChange={(event) => onChange({ contentFiltering: event.currentTarget.checked })}
            />
            <Checkbox
              label="Skip files already added (default off)"
              checked={choices.skipDuplicates}
              onChange={(event) => onChange({ skipDuplicates: event.currentTarget.checked })}
            />
            {changed && (
              <Button variant="subtle" size="compact-sm" color="gray" onClick={onReset} ml="auto">
                Back to the defaults
              </Button>
            )}
          </Group>
        </Stack>
      </Collapse>
    </Stack>
  );
}

function OverrideControl({
  label,
  value,
  onChange,
}: {
  label: string;
  value: Override;
  onChange: (value: Override) => void;
}) {
  const id = `upload-${label.split(' ')[0].toLowerCase()}-label`;
  return (
    <Stack gap={4}>
      <Text fz="sm" fw={500} id={id}>
        {label}
      </Text>
      <SegmentedControl
        aria-labelledby={id}
        value={value}
        onChange={(next) => onChange(next as Override)}
        data={overrides}
      />
    </Stack>
  );
}
