import { useCallback, useMemo, useState } from 'react';

/** Whether the rows on view are all, some or none of them selected. */
export type PageState = 'all' | 'some' | 'none';

export interface Selection {
  /** How many rows the selection holds: every match when `allMatching`, else the ticked ones. */
  count: number;
  /** The whole filtered list is selected, including rows on pages not loaded. */
  allMatching: boolean;
  /** The ticked ids (meaningless while `allMatching`: the caller lists the matches itself). */
  ids: string[];
  /** How many rows match the filter, across all pages. */
  total: number;
  page: PageState;
  isSelected: (id: string) => boolean;
  toggle: (id: string) => void;
  /** Ticks every row on view, or clears them if all were ticked. */
  togglePage: () => void;
  selectAllMatching: () => void;
  clear: () => void;
}

/**
 * The rows a person picked in a paged list: ticked one by one, the whole page, or "all N matching".
 * `ids` are the rows on view, `total` how many match the filter. A caller clears it when the filter changes.
 */
export function useSelection(ids: readonly string[], total: number): Selection {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);

  const onPage = ids.filter((id) => allMatching || ticked.has(id)).length;
  const page: PageState = ids.length > 0 && onPage === ids.length ? 'all' : onPage > 0 ? 'some' : 'none';

  const isSelected = useCallback((id: string) => allMatching || ticked.has(id), [allMatching, ticked]);
  const toggle = useCallback(
    (id: string) => {
      // Unticking one row of "all matching" leaves the rest of the page ticked.
      setTicked((current) => {
        const next = new Set(allMatching ? ids : current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
      setAllMatching(false);
    },
    [allMatching, ids],
  );
  const togglePage = useCallback(() => {
    setAllMatching(false);
    setTicked((current) => {
      const everyTicked = ids.length > 0 && ids.every((id) => allMatching || current.has(id));
      const next = new Set(allMatching ? [] : current);
      for (const id of ids) {
        if (everyTicked) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  }, [allMatching, ids]);
  const selectAllMatching = useCallback(() => setAllMatching(true), []);
  const clear = useCallback(() => {
    setAllMatching(false);
    setTicked(new Set());
  }, []);

  return useMemo(
    () => ({
      count: allMatching ? total : ticked.size,
      allMatching,
      ids: [...ticked],
      total,
      page,
      isSelected,
      toggle,
      togglePage,
      selectAllMatching,
      clear,
    }),
    [allMatching, total, ticked, page, isSelected, toggle, togglePage, selectAllMatching, clear],
  );
}
