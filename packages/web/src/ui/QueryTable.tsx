import { TEXTS } from '@patchwell/core/texts';
import { Alert, Loader, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CONSOLE_TEXTS } from '../texts';

export type QueryTableColumn = { key: string; header: ReactNode };

/** The part of a TanStack Query result the table reads (so tests and callers can pass plain objects). */
export type QueryTableSource<T> = { data: readonly T[] | undefined; isPending: boolean; isError: boolean };

/**
 * A whole-list table fed by one query: its loading, error and empty states in one place, so
 * every settings and global page shows them the same way. A list the server pages uses
 * PagedQueryTable; sortable, filterable tables use ui/table.
 */
export type QueryTableProps<T> = {
  label: string;
  query: QueryTableSource<T>;
  columns: readonly QueryTableColumn[];
  rowKey: (item: T) => string | number;
  /** The row's `<Table.Td>` cells, in the order of `columns`. */
  renderCells: (item: T) => ReactNode;
  empty: ReactNode;
  errorText?: string;
  minWidth?: number;
};

export function QueryTable<T>({
  label,
  query,
  columns,
  rowKey,
  renderCells,
  empty,
  errorText = TEXTS.generic.unableToLoad,
  minWidth = 720,
}: QueryTableProps<T>) {
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {errorText}
      </Alert>
    );
  if (query.isPending || !query.data) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} scope="col">
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {query.data.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text size="sm" c="dimmed" role="status">
                  {empty}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {query.data.map((item) => (
            <Table.Tr key={rowKey(item)}>{renderCells(item)}</Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
