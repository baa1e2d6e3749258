import { PAGE_SIZE_DEFAULT } from '@patchwell/core/constants';
import { Stack } from '@mantine/core';
import { useState } from 'react';
import { QueryTable, type QueryTableProps } from './QueryTable';
import { TablePager } from './table/TablePager';

/** A page of a list the server pages: its rows and how many there are in all. */
export type PagedSource<T> = {
  data: { data: readonly T[]; size: number } | undefined;
  isPending: boolean;
  isError: boolean;
};

export type Paging = {
  /** One-based, as the pager shows it. */
  page: number;
  limit: number;
  /** Page (zero-based) and page size, as the API takes them. */
  apiQuery: { page: number; limit: number };
  onPage: (page: number) => void;
  /** A new page size starts again at the first page. */
  onLimit: (limit: number) => void;
};

/** Page and page size of a table paged on the server, starting at the first page. */
export function usePaging(initialLimit: number = PAGE_SIZE_DEFAULT): Paging {
  const [paging, setPaging] = useState({ page: 1, limit: initialLimit });
  return {
    ...paging,
    apiQuery: { page: paging.page - 1, limit: paging.limit },
    onPage: (page) => setPaging((p) => ({ ...p, page })),
    onLimit: (limit) => setPaging({ page: 1, limit }),
  };
}

/**
 * QueryTable over one page of a list the server pages (a device's commands, a policy's runs
 * and their results), with the pager once there is more than one page. It also stays once a
 * page size other than the default was chosen, or on a later page, so the user can always go back.
 */
export function PagedQueryTable<T>({
  query,
  paging,
  ...table
}: Omit<QueryTableProps<T>, 'query'> & { query: PagedSource<T>; paging: Paging }) {
  const page = query.data;
  return (
    <Stack gap="sm">
      <QueryTable {...table} query={{ data: page?.data, isPending: query.isPending, isError: query.isError }} />
      {page && (page.size > paging.limit || paging.page > 1 || paging.limit !== PAGE_SIZE_DEFAULT) && (
        <TablePager
          page={paging.page}
          limit={paging.limit}
          total={page.size}
          onPage={paging.onPage}
          onLimit={paging.onLimit}
        />
      )}
    </Stack>
  );
}
