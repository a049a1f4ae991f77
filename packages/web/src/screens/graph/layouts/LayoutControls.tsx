import { Button, Group, Select, Switch } from '@mantine/core';
import { layoutLabels, layoutNames, isLayoutName, type LayoutName } from './layout-names.ts';

/** The arrangement of the canvas, once more with the same one, and whether names are drawn. */
export function LayoutControls({
  layout,
  onLayout,
  onArrange,
  arrangeDisabled,
  labels,
  onLabels,
}: {
  layout: LayoutName;
  onLayout: (layout: LayoutName) => void;
  onArrange: () => void;
  arrangeDisabled: boolean;
  labels: boolean;
  onLabels: (shown: boolean) => void;
}) {
  return (
    <Group gap="xs" wrap="wrap">
      <Select
        aria-label="Layout"
        size="xs"
        w={170}
        data={layoutNames.map((name) => ({ value: name, label: layoutLabels[name] }))}
        value={layout}
        onChange={(value) => isLayoutName(value) && onLayout(value)}
        allowDeselect={false}
        data-testid="layout-choice"
      />
      <Button size="xs" variant="default" disabled={arrangeDisabled} onClick={onArrange}>
        Arrange again
      </Button>
      <Switch size="sm" label="Labels" checked={labels} onChange={(event) => onLabels(event.currentTarget.checked)} />
    </Group>
  );
}
