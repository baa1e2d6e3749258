import { Table } from '@mantine/core';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONSOLE_TEXTS } from '../texts';
import { renderAt } from '../test/render';
import { PagedQueryTable, usePaging, type PagedSource } from './PagedQueryTable';

type Row = { id: number; name: string };
const COLUMNS = [{ key: 'name', header: 'Name' }] as const;

/** Serves a 60-row list a page at a time, as the API would, and shows which page was asked. */
function Harness({ source }: { source?: (page: number, limit: number) => PagedSource<Row> }) {
  const paging = usePaging();
  const all = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
  const { page, limit } = paging.apiQuery;
  const query = source?.(page, limit) ?? {
    data: { data: all.slice(page * limit, (page + 1) * limit), size: all.length },
    isPending: false,
    isError: false,
  };
  return (
    <>
      <p data-testid="asked">{`${page}/${limit}`}</p>
      <PagedQueryTable
        label="Rows"
        query={query}
        paging={paging}
        columns={COLUMNS}
        rowKey={(r) => r.id}
        empty="Nothing yet."
        renderCells={(r) => <Table.Td>{r.name}</Table.Td>}
      />
    </>
  );
}

describe('PagedQueryTable', () => {
  it('asks the API for zero-based pages and starts again at the first page when the size changes', () => {
    renderAt(<Harness />);
    expect(screen.getByTestId('asked')).toHaveTextContent('0/25');
    expect(screen.getByText('row 1')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.table.pageN(3) }));
    expect(screen.getByTestId('asked')).toHaveTextContent('2/25');
    expect(screen.getByText('row 51')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize }), {
      target: { value: '50' },
    });
    expect(screen.getByTestId('asked')).toHaveTextContent('0/50');
    expect(screen.getByText('row 50')).toBeInTheDocument();
    // Still more than one page, and a size other than the default keeps the pager regardless.
    expect(screen.getByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize })).toHaveValue('50');
    fireEvent.change(screen.getByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize }), {
      target: { value: '100' },
    });
    expect(screen.getByText('row 60')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize })).toHaveValue('100');
  });

  it('shows no pager for a single page, the empty text for none, and the error', () => {
    const { unmount } = renderAt(
      <Harness
        source={() => ({ data: { data: [{ id: 1, name: 'only' }], size: 1 }, isPending: false, isError: false })}
      />,
    );
    expect(screen.getByText('only')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize })).toBeNull();
    unmount();
    const empty = renderAt(
      <Harness source={() => ({ data: { data: [], size: 0 }, isPending: false, isError: false })} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Nothing yet.');
    empty.unmount();
    renderAt(<Harness source={() => ({ data: undefined, isPending: false, isError: true })} />);
    expect(screen.getByRole('alert')).toBeInTheDocument();
  });
});
