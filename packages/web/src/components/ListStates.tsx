import type { ReactNode } from 'react';
import { Skeleton, Text } from '@mantine/core';
import { ErrorNotice } from './ErrorNotice.tsx';

/** A server-paged list's body: its error with a retry, a placeholder while the first page loads, the empty text, or the list. */
export function ListStates({
  what,
  error,
  rows,
  onRetry,
  empty,
  children,
}: {
  /** Plural, as in "Could not load the entities". */
  what: string;
  error: string | null | undefined;
  /** Undefined until the first page arrived. */
  rows: readonly unknown[] | undefined;
  onRetry: () => void;
  empty: ReactNode;
  children: ReactNode;
}) {
  if (error) return <ErrorNotice title={`Could not load the ${what}`} message={error} onRetry={onRetry} />;
  if (rows === undefined) return <Skeleton h={320} />;
  if (rows.length === 0)
    return (
      <Text c="dimmed" fz="sm">
        {empty}
      </Text>
    );
  return children;
}
