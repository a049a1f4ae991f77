import { Button, Checkbox, ColorSwatch, Group, Stack, Text } from '@mantine/core';
import { templateLabel } from '../../lib/graph-labels.ts';
import type { CanvasTemplate } from '../../lib/graph-model.ts';

export interface LegendEntry {
  template: CanvasTemplate;
  color: string;
  count: number;
}

/** One checkbox per node template with its colour and count: unticking hides that kind of entity. */
export function GraphLegend({
  entries,
  hidden,
  onChange,
}: {
  entries: LegendEntry[];
  hidden: Set<string>;
  onChange: (hidden: Set<string>) => void;
}) {
  const toggle = (id: string, shown: boolean) => {
    const next = new Set(hidden);
    if (shown) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <Stack gap={6} role="group" aria-labelledby="graph-legend-title" data-testid="graph-legend">
      <Group justify="space-between" gap="xs">
        <Text id="graph-legend-title" fw={600} fz="sm">
          Types
        </Text>
        {hidden.size > 0 && (
          <Button variant="subtle" size="compact-xs" onClick={() => onChange(new Set())}>
            Show all
          </Button>
        )}
      </Group>
      {entries.map(({ template, color, count }) => (
        <Checkbox
          key={template.id}
          size="xs"
          checked={!hidden.has(template.id)}
          onChange={(event) => toggle(template.id, event.currentTarget.checked)}
          label={
            <Group gap={6} wrap="nowrap">
              <ColorSwatch color={color} size={12} withShadow={false} aria-hidden />
              <Text fz="sm" span title={template.name}>
                {templateLabel(template.name)}
              </Text>
              <Text fz="xs" c="dimmed" span>
                {count.toLocaleString()}
              </Text>
            </Group>
          }
        />
      ))}
    </Stack>
  );
}
