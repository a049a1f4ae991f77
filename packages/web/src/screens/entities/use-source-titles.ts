import { useMemo } from 'react';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { useEndpointPages } from '../../lib/data/use-endpoint.ts';

/** Every source's name by id, for the source filter and the source column of a graph list. */
export function useSourceTitles() {
  const sources = useEndpointPages(sourceEndpoints.list);
  return useMemo(() => {
    const titles = new Map<string, string>();
    for (const source of sources.data ?? [])
      titles.set(source.id, source.title ?? source.filename ?? source.origin_url ?? source.id);
    const options = [...titles.entries()].map(([value, label]) => ({ value, label }));
    return { titles, options };
  }, [sources.data]);
}
