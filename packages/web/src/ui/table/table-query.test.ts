import { describe, expect, it } from 'vitest';
import { apiPaging, readTableQuery, withFilter, withLimit, withPage, withSortToggled } from './table-query';

const FILTERS = ['search', 'status'] as const;
const read = (p: URLSearchParams) => readTableQuery(p, FILTERS);

describe('table query state', () => {
  it('defaults to page 1, 25 rows, no sort, and sends page 0', () => {
    const query = read(new URLSearchParams('o=1'));
    expect(query).toEqual({ page: 1, limit: 25, sort: null, filters: { search: '', status: '' } });
    expect(apiPaging(query)).toEqual({ page: 0, limit: 25 });
  });

  it('resets the page when a filter changes, and keeps the zone', () => {
    const next = withFilter(new URLSearchParams('o=1&page=4&status=online'), 'status', 'offline');
    expect(next.toString()).toBe('o=1&status=offline');
    expect(read(withFilter(next, 'status', '')).filters.status).toBe('');
  });

  it('resets the page when the page size or the sort changes, but not when the page changes', () => {
    const params = new URLSearchParams('o=1&page=3&status=online');
    expect(read(withLimit(params, 100))).toMatchObject({ page: 1, limit: 100 });
    expect(read(withSortToggled(params, 'name'))).toMatchObject({ page: 1, sort: { field: 'name', dir: 'asc' } });
    expect(read(withPage(params, 5))).toMatchObject({ page: 5, filters: { status: 'online' } });
  });

  it('cycles a column through ascending, descending and unsorted', () => {
    const asc = withSortToggled(new URLSearchParams(), 'name');
    const desc = withSortToggled(asc, 'name');
    expect(apiPaging(read(desc)).sort).toBe('name:desc');
    expect(read(withSortToggled(desc, 'name')).sort).toBeNull();
  });

  it('ignores page sizes outside the spec’s options and invalid pages', () => {
    expect(read(new URLSearchParams('limit=700&page=-2'))).toMatchObject({ limit: 25, page: 1 });
    expect(read(new URLSearchParams('limit=500'))).toMatchObject({ limit: 500 });
  });
});
