import { Group, Radio, Stack, Text } from '@mantine/core';

export interface Choice<V extends string> {
  value: V;
  label: string;
  /** What it gives. */
  gives: string;
  /** What it costs or needs. */
  costs: string;
}

/** One choice among a few, each card saying what it gives and what it costs. */
export function ChoiceCards<V extends string>({
  label,
  choices,
  value,
  onChange,
}: {
  label: string;
  choices: Choice<V>[];
  value: V;
  onChange: (value: V) => void;
}) {
  return (
    <Radio.Group value={value} onChange={(next) => onChange(next as V)} aria-label={label}>
      <Stack gap="xs">
        {choices.map((choice) => (
          <Radio.Card key={choice.value} value={choice.value} radius="md" p="sm" aria-label={choice.label}>
            <Group wrap="nowrap" align="flex-start" gap="xs">
              <Radio.Indicator mt={2} />
              <div>
                <Text fw={600} fz="sm">
                  {choice.label}
                </Text>
                <Text fz="xs">{choice.gives}</Text>
                <Text fz="xs" c="dimmed">
                  {choice.costs}
                </Text>
              </div>
            </Group>
          </Radio.Card>
        ))}
      </Stack>
    </Radio.Group>
  );
}
