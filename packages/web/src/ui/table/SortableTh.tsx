import { Table, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { TableSort } from './table-query';

export type SortableThProps = {
  field: string;
  sort: TableSort;
  onSort: (field: string) => void;
  children: ReactNode;
};

/** A column header that sorts the server-paged table; `aria-sort` tells screen readers the order. */
export function SortableTh({ field, sort, onSort, children }: SortableThProps) {
  const dir = sort?.field === field ? sort.dir : null;
  const Icon = dir === 'asc' ? IconSortAscending : dir === 'desc' ? IconSortDescending : IconArrowsSort;
  return (
    <Table.Th scope="col" aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton
        onClick={() => onSort(field)}
        fw={700}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {children}
        <Icon size={14} aria-hidden="true" />
      </UnstyledButton>
    </Table.Th>
  );
}
