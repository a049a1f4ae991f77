export { insertRows } from '../storage/index.ts';

/** `values` in slices small enough for one bound JSON array each, the results concatenated. */
export async function inSlices<T, R>(values: T[], work: (slice: T[]) => Promise<R[]>, size = 2_000): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < values.length; start += size)
    results.push(...(await work(values.slice(start, start + size))));
  return results;
}
