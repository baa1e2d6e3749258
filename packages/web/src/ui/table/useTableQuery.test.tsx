import { DEBOUNCE_MS } from '@patchwell/core/constants';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { renderRoutes } from '../../test/render';
import { useTableQuery } from './useTableQuery';

function List() {
  const table = useTableQuery(['search'] as const, 'search');
  return (
    <>
      <input aria-label="Search" value={table.searchInput} onChange={(e) => table.setSearchInput(e.target.value)} />
      <Link to="/items/7">Item 7</Link>
    </>
  );
}

describe('useTableQuery', () => {
  it('leaves a followed link alone when the search settles while the next page loads', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let loadPage: (page: { Component: ComponentType }) => void = () => {};
    const { router } = renderRoutes(
      [
        { path: '/items', element: <List /> },
        { path: '/items/:id', lazy: () => new Promise((resolve) => (loadPage = resolve)) },
      ],
      '/items',
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'CVE-2024');
    await user.click(screen.getByRole('link', { name: 'Item 7' }));
    // The search settles while the item's page is still loading.
    await act(() => vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 2));
    loadPage({ Component: () => <h1>Item page</h1> });
    expect(await screen.findByRole('heading', { name: 'Item page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/items/7');
  });

  it('writes a settled search into the URL', async () => {
    const { router } = renderRoutes([{ path: '/items', element: <List /> }], '/items');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'openssl');
    await vi.waitFor(() => expect(router.state.location.search).toContain('search=openssl'));
  });
});
