import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list's filter and page kept in the address (`?type=person&page=3`), so a reload, a link or the back
 * button opens the list as it was. Changing a filter returns to the first page.
 */
export function useUrlFilter<Key extends string>(
  keys: readonly Key[],
): [Record<Key, string> & { page: number }, (change: Partial<Record<Key | 'page', string | number | null>>) => void] {
  const [search, setSearch] = useSearchParams();
  const values = useMemo(() => {
    const read = Object.fromEntries(keys.map((key) => [key, search.get(key) ?? ''])) as Record<Key, string>;
    const page = Number(search.get('page'));
    return { ...read, page: Number.isInteger(page) && page > 0 ? page : 1 };
  }, [keys, search]);
  const change = useCallback(
    (next: Partial<Record<Key | 'page', string | number | null>>) =>
      setSearch(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const [key, value] of Object.entries(next)) {
            if (value === null || value === '' || (key === 'page' && value === 1)) updated.delete(key);
            else updated.set(key, String(value));
          }
          if (!('page' in next)) updated.delete('page');
          return updated;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return [values, change];
}
