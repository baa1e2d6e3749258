import { PAGE_SIZE_OPTIONS } from '@patchwell/core/constants';
import { Group, NativeSelect, Pagination, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CONSOLE_TEXTS } from '../../texts';

export type TablePagerProps = {
  /** 1-based. */
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
  /** Said above the pager when the page has no rows ("no device matches…"); null or absent: nothing. */
  empty?: ReactNode;
};

/** Page size (10/25/50/100/500, spec B section 9), the range shown and the page buttons. */
export function TablePager({ page, limit, total, onPage, onLimit, empty }: TablePagerProps) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <>
      {empty && (
        <Text size="sm" c="dimmed" role="status">
          {empty}
        </Text>
      )}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          <NativeSelect
            aria-label={CONSOLE_TEXTS.table.pageSize}
            size="xs"
            value={String(limit)}
            data={PAGE_SIZE_OPTIONS.map((n) => String(n))}
            onChange={(e) => onLimit(Number(e.currentTarget.value))}
          />
          <Text size="sm" c="dimmed">
            {CONSOLE_TEXTS.table.range(from, to, total)}
          </Text>
        </Group>
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={onPage}
          size="sm"
          getControlProps={(control) =>
            control === 'previous'
              ? { 'aria-label': CONSOLE_TEXTS.table.previous }
              : control === 'next'
                ? { 'aria-label': CONSOLE_TEXTS.table.next }
                : {}
          }
          getItemProps={(p) => ({ 'aria-label': CONSOLE_TEXTS.table.pageN(p) })}
        />
      </Group>
    </>
  );
}
