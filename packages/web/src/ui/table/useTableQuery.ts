import { DEBOUNCE_MS } from '@patchwell/core/constants';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import {
  readTableQuery,
  withFilter,
  withLimit,
  withoutFilters,
  withPage,
  withSortToggled,
  type TableQuery,
} from './table-query';

export type TableQueryControls<F extends string> = {
  query: TableQuery<F>;
  /** The search box's text now; reaches `query.filters.search` after the debounce. */
  searchInput: string;
  setSearchInput: (value: string) => void;
  setFilter: (name: F, value: string) => void;
  clearFilters: () => void;
  setPage: (page: number) => void;
  setLimit: (limit: number) => void;
  toggleSort: (field: string) => void;
};

/**
 * A server-paged table's state in the URL. Filter, sort and page-size changes reset the
 * page; the search text is debounced 200 ms before it changes the query (spec B section 4).
 */
export function useTableQuery<F extends string>(filterNames: readonly F[], searchName?: F): TableQueryControls<F> {
  const [params, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  // Where the router is going while the next page's code or data loads (idle otherwise).
  const leavingFor = useNavigation().location?.pathname;
  const isLeaving = leavingFor !== undefined && leavingFor !== pathname;
  // react-router hands functional updates the last *rendered* params, so two changes made
  // before a re-render (two filters picked quickly) would lose the first. Chain them here.
  const pending = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [params]);
  const setParams = useCallback(
    (update: (prev: URLSearchParams) => URLSearchParams, options?: { replace?: boolean }) =>
      setSearchParams((prev) => {
        const next = update(pending.current ?? prev);
        pending.current = next;
        return next;
      }, options),
    [setSearchParams],
  );
  const query = useMemo(() => readTableQuery(params, filterNames), [params, filterNames]);
  const urlSearch = searchName ? query.filters[searchName] : '';
  const [searchInput, setSearchInput] = useState(urlSearch);
  const [debouncedSearch] = useDebouncedValue(searchInput, DEBOUNCE_MS);
  // The URL changed under the box (back button, cleared filters, a link): show its search.
  const [shownUrlSearch, setShownUrlSearch] = useState(urlSearch);
  if (shownUrlSearch !== urlSearch) {
    setShownUrlSearch(urlSearch);
    setSearchInput(urlSearch);
  }

  useEffect(() => {
    // Only a settled box (no keystroke for 200 ms) changes the query. Not once a link to
    // another page was followed (typed, then a row clicked at once): writing the search
    // then would cancel that navigation and keep the person on the list.
    if (!searchName || isLeaving || debouncedSearch !== searchInput || debouncedSearch === urlSearch) return;
    setParams((prev) => withFilter(prev, searchName, debouncedSearch), { replace: true });
  }, [debouncedSearch, searchInput, urlSearch, searchName, isLeaving, setParams]);

  return {
    query,
    searchInput,
    setSearchInput,
    setFilter: (name, value) => setParams((prev) => withFilter(prev, name, value)),
    clearFilters: () => {
      setSearchInput('');
      setParams((prev) => withoutFilters(prev, filterNames));
    },
    setPage: (page) => setParams((prev) => withPage(prev, page)),
    setLimit: (limit) => setParams((prev) => withLimit(prev, limit)),
    toggleSort: (field) => setParams((prev) => withSortToggled(prev, field)),
  };
}
