import { Box, Code, Text } from '@mantine/core';
import { countOf, humanise } from '../lib/format.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a folded value holds, e.g. "3 fields" or "2 items". */
function foldedSummary(value: Record<string, unknown> | unknown[]): string {
  return Array.isArray(value) ? countOf(value.length, 'item') : countOf(Object.keys(value).length, 'field');
}

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return (
      <Text span fz="sm" c="dimmed">
        empty
      </Text>
    );
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  if (typeof value === 'number') return <>{value.toLocaleString()}</>;
  if (typeof value === 'string' && value === '')
    return (
      <Text span fz="sm" c="dimmed">
        no text
      </Text>
    );
  return <>{String(value)}</>;
}

/** The rows of an object (its keys made readable) or a list (numbered). */
const entriesOf = (value: Record<string, unknown> | unknown[]) =>
  Array.isArray(value)
    ? value.map((item, index) => [`${index + 1}.`, item] as const)
    : Object.entries(value).map(([key, item]) => [humanise(key), item] as const);

/** A nested value: plain values as they are, objects and lists folded behind what they hold. */
function Value({ value }: { value: unknown }) {
  if (!isRecord(value) && !Array.isArray(value)) return <Scalar value={value} />;
  return (
    <Box component="details">
      <Text component="summary" fz="sm" c="dimmed" style={{ cursor: 'pointer' }}>
        {foldedSummary(value)}
      </Text>
      <Fields value={value} />
    </Box>
  );
}

function Fields({ value }: { value: Record<string, unknown> | unknown[] }) {
  const entries = entriesOf(value);
  if (entries.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        {Array.isArray(value) ? 'No items' : 'No fields'}
      </Text>
    );
  return (
    <Box
      component="dl"
      m={0}
      style={{
        display: 'grid',
        gridTemplateColumns: 'minmax(4rem, max-content) minmax(0, 1fr)',
        columnGap: 'var(--mantine-spacing-sm)',
        rowGap: 4,
      }}
    >
      {entries.map(([key, item]) => (
        <div key={key} style={{ display: 'contents' }}>
          <Text component="dt" fz="sm" c="dimmed">
            {key}
          </Text>
          <Text component="dd" fz="sm" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            <Value value={item} />
          </Text>
        </div>
      ))}
    </Box>
  );
}

/**
 * A JSON value the way a person reads it: a labelled list of its fields with nested values folded, and the
 * exact JSON one click away under "Raw"; `empty` when there is nothing to show.
 */
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
    <div role="group" aria-label={label}>
      {isRecord(value) || Array.isArray(value) ? (
        <Fields value={value} />
      ) : (
        <Text fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          <Scalar value={value} />
        </Text>
      )}
      <RawJson value={value} label={`${label} as JSON`} maxHeight={maxHeight} />
    </div>
  );
}

/** The exact JSON of a value, folded under "Raw" for whoever needs it. */
export function RawJson({ value, label, maxHeight = 260 }: { value: unknown; label: string; maxHeight?: number }) {
  return (
    <Box component="details" mt={6}>
      <Text component="summary" fz="xs" c="dimmed" style={{ cursor: 'pointer' }}>
        Raw
      </Text>
      <Code
        block
        aria-label={label}
        tabIndex={0}
        mt={4}
        style={{ maxHeight, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {JSON.stringify(value, null, 2)}
      </Code>
    </Box>
  );
}
