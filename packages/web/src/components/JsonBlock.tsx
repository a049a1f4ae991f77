import { Code, Text } from '@mantine/core';

/** A JSON value shown readably (indented, scrolling when long); `empty` when there is nothing to show. */
export function JsonBlock({
  value,
  label,
  empty = 'Nothing',
  maxHeight = 260,
}: {
  value: unknown;
  label: string;
  empty?: string;
  maxHeight?: number;
}) {
  if (value === undefined || value === null)
    return (
      <Text fz="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Code
      block
      aria-label={label}
      tabIndex={0}
      style={{ maxHeight, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}
