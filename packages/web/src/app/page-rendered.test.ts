import { CONSOLE_RENDERED_ELEMENT_ID } from '@patchwell/core/constants';
import type { ConsolePageState } from '@patchwell/core/shell/page-render';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWithPage } from '../test/data-block';
import { isDrawnPage, routerReady, takeRenderedPage } from './page-rendered';

/** The data block of a page the server drew: its queries' answers. */
function drawnState() {
  const state: ConsolePageState = {
    queries: [{ key: ['devices', 3, { page: 0 }], data: { data: [{ id: 1 }], size: 1 }, updatedAt: 1_700_000_000_000 }],
  };
  return JSON.stringify(state);
}

afterEach(() => document.getElementById(CONSOLE_RENDERED_ELEMENT_ID)?.remove());

describe('takeRenderedPage', () => {
  it('puts the data a drawn page came with in the cache, once', () => {
    const container = document.createElement('div');
    container.innerHTML = '<main>drawn</main>';
    sendWithPage(CONSOLE_RENDERED_ELEMENT_ID, drawnState());
    const client = new QueryClient();
    expect(takeRenderedPage(client, container)).toBe(true);
    expect(client.getQueryData(['devices', 3, { page: 0 }])).toEqual({ data: [{ id: 1 }], size: 1 });
    // Read when the server read it: fresh for as long as it would have been.
    expect(client.getQueryState(['devices', 3, { page: 0 }])?.dataUpdatedAt).toBe(1_700_000_000_000);
    expect(document.getElementById(CONSOLE_RENDERED_ELEMENT_ID)).toBeNull();
    expect(takeRenderedPage(new QueryClient(), container)).toBe(false);
  });

  it('is not a drawn page without markup in the root, or without the block, or with a block that is not JSON', () => {
    const empty = document.createElement('div');
    sendWithPage(CONSOLE_RENDERED_ELEMENT_ID, drawnState());
    const client = new QueryClient();
    expect(takeRenderedPage(client, empty)).toBe(false);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    const drawn = document.createElement('div');
    drawn.innerHTML = '<main>drawn</main>';
    expect(takeRenderedPage(client, drawn)).toBe(false);
    sendWithPage(CONSOLE_RENDERED_ELEMENT_ID, '{"queries":');
    expect(takeRenderedPage(client, drawn)).toBe(false);
    sendWithPage(CONSOLE_RENDERED_ELEMENT_ID, '{"queries":null}');
    expect(takeRenderedPage(client, drawn)).toBe(false);
  });
});

describe('routerReady and isDrawnPage', () => {
  it('waits for the first page’s loaders, then tells whether the router stands where the document was loaded', async () => {
    let release: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    const routes = [
      { path: '/console/devices', loader: () => loaded.then(() => null), Component: () => null },
      { path: '/console/moved', Component: () => null },
      { path: '/console/old', loader: () => loaded.then(() => Response.redirect('/console/moved', 302)) },
    ];
    const router = createMemoryRouter(routes, { initialEntries: ['/console/devices?o=3'] });
    let isReady = false;
    const ready = routerReady(router).then(() => (isReady = true));
    await Promise.resolve();
    expect(isReady).toBe(false);
    release();
    await ready;
    expect(isDrawnPage(router, { pathname: '/console/devices', search: '?o=3' })).toBe(true);
    expect(isDrawnPage(router, { pathname: '/console/devices', search: '?o=4' })).toBe(false);
    // Ready already: at once.
    await routerReady(router);

    const moved = createMemoryRouter(routes, { initialEntries: ['/console/old'] });
    await routerReady(moved);
    expect(isDrawnPage(moved, { pathname: '/console/old', search: '' })).toBe(false);
    router.dispose();
    moved.dispose();
  });
});
