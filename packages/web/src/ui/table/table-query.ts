import { PAGE_SIZE_DEFAULT, PAGE_SIZE_OPTIONS } from '@patchwell/core/constants';

/**
 * Table state kept in the URL (spec B sections 3 and 4): `page` (1-based on screen, sent
 * zero-based), `limit`, `sort` as `field:asc|desc`, and the table's filters. Any change
 * other than the page itself sends the table back to its first page.
 */
export type SortDir = 'asc' | 'desc';
export type TableSort = { field: string; dir: SortDir } | null;

export type TableQuery<F extends string> = {
  /** 1-based page on screen. */
  page: number;
  limit: number;
  sort: TableSort;
  filters: Record<F, string>;
};

export function readTableQuery<F extends string>(params: URLSearchParams, filterNames: readonly F[]): TableQuery<F> {
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  const [field, dir] = (params.get('sort') ?? '').split(':');
  const filters = Object.fromEntries(filterNames.map((name) => [name, params.get(name) ?? ''])) as Record<F, string>;
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: (PAGE_SIZE_OPTIONS as readonly number[]).includes(limit) ? limit : PAGE_SIZE_DEFAULT,
    sort: field && (dir === 'asc' || dir === 'desc') ? { field, dir } : null,
    filters,
  };
}

function copy(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams(params);
}

/** A filter set to `value` ('' removes it); the page goes back to the first. */
export function withFilter(params: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = copy(params);
  if (value) next.set(name, value);
  else next.delete(name);
  next.delete('page');
  return next;
}

/** Every filter removed; the page goes back to the first (sort and page size stay). */
export function withoutFilters(params: URLSearchParams, filterNames: readonly string[]): URLSearchParams {
  const next = copy(params);
  for (const name of filterNames) next.delete(name);
  next.delete('page');
  return next;
}

export function withPage(params: URLSearchParams, page: number): URLSearchParams {
  const next = copy(params);
  if (page <= 1) next.delete('page');
  else next.set('page', String(page));
  return next;
}

/** A new page size; the page goes back to the first. */
export function withLimit(params: URLSearchParams, limit: number): URLSearchParams {
  const next = copy(params);
  if (limit === PAGE_SIZE_DEFAULT) next.delete('limit');
  else next.set('limit', String(limit));
  next.delete('page');
  return next;
}

/** Sorting by `field`: ascending first, then descending, then off. The page goes back to the first. */
export function withSortToggled(params: URLSearchParams, field: string): URLSearchParams {
  const next = copy(params);
  const current = readTableQuery(params, []).sort;
  if (!current || current.field !== field) next.set('sort', `${field}:asc`);
  else if (current.dir === 'asc') next.set('sort', `${field}:desc`);
  else next.delete('sort');
  next.delete('page');
  return next;
}

/** The API's paging and sort parameters (zero-based page, spec B section 7). */
export function apiPaging(query: TableQuery<string>): { page: number; limit: number; sort?: string } {
  return {
    page: query.page - 1,
    limit: query.limit,
    ...(query.sort ? { sort: `${query.sort.field}:${query.sort.dir}` } : {}),
  };
}

/** Non-empty filters only, for the API's query. */
export function activeFilters<F extends string>(filters: Record<F, string>): Partial<Record<F, string>> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')) as Partial<Record<F, string>>;
}
