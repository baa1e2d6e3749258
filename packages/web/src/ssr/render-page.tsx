/**
 * The server's first paint of a signed-in page (decision 0030): the dashboard or the devices
 * list drawn in Node with the console's own routes, components and query functions, from the
 * data the page's loader asks for, so that a phone shows the page before the scripts arrive;
 * the console then hydrates this markup (app/page-rendered.ts). Built for Node by
 * `vite build --ssr` into dist-ssr/, loaded by the server (server/src/http/console-render.ts).
 *
 * Each page is drawn with a query client of its own, and the page's API reads go to the
 * `fetch` of the request being drawn (an AsyncLocalStorage, since the console's API client
 * is one object shared by every query function): nothing of one user's page reaches another's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ZProfile } from '@patchwell/core/auth/profile.schema';
import { ZBannerList } from '@patchwell/core/shell/banner.schema';
import type { ConsolePageRenderer, ConsolePageRenderInput, ConsolePageState } from '@patchwell/core/shell/page-render';
import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { api } from '../api/client';
import { PAGE_DATA_FRESH_MS, type PageDataAsk } from '../app/page-data';
import { consolePath, PATHS } from '../app/paths';
import { Providers } from '../app/Providers';
import { BASENAME } from '../app/router';
import { routes } from '../app/routes';
import type { ShellContext } from '../app/session';
import { SHELL_ROUTE_ID } from '../app/shell-context';
import { requestedZoneId } from '../app/zone';
import { profileQuery } from '../features/auth/session.api';
import { dashboardData } from '../features/dashboard/dashboard.loader';
import { devicesData } from '../features/devices/devices.loader';
import { CONFIG_QUERY_KEY } from '../features/shell/config.api';
import { BANNERS_QUERY_KEY } from '../features/shell/shell.api';

/** The pages the server draws, by path, and the queries their route loaders start. */
const RENDERED_PAGES: Record<string, PageDataAsk> = {
  [PATHS.dashboard]: dashboardData,
  [PATHS.devices]: devicesData,
};

const pageFetch = new AsyncLocalStorage<ConsolePageRenderInput['fetch']>();
api.configure({
  fetch: (url, init) => {
    const send = pageFetch.getStore();
    if (!send) throw new Error('render-page: an API read outside a page being drawn');
    if ((init.method ?? 'GET') !== 'GET')
      throw new Error(`render-page: a page is drawn from reads only, not ${init.method}`);
    return send(url.pathname + url.search);
  },
});

export const renderPage: ConsolePageRenderer = async ({ url, profile, banners, config, fetch }) => {
  const address = new URL(url, 'http://console.invalid');
  const ask = RENDERED_PAGES[consolePath(address, BASENAME).split('?')[0] ?? ''];
  const self = ZProfile.safeParse(profile);
  if (!ask || !self.success) return null;
  // The console moves an address without its zone (or with the old `org`) to one with it, and
  // chooses among the user's zones: drawn only when the address names a zone of the user's.
  const zoneId = requestedZoneId(address.searchParams);
  const zone = self.data.orgs.find((o) => o.id === zoneId);
  if (!zone || address.searchParams.has('org') || address.searchParams.get('o') !== String(zone.id)) return null;
  const shell: ShellContext = { profile: self.data, zone, zoneId: zone.id };

  // The queries every page finds in its cache from the page's own data blocks (main.tsx,
  // app/session.ts): the same here, so both draw the same markup. Not sent again below.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: PAGE_DATA_FRESH_MS } } });
  client.setQueryData(profileQuery(zoneId).queryKey, self.data);
  client.setQueryData(CONFIG_QUERY_KEY, config);
  const bannerList = ZBannerList.safeParse(banners);
  if (bannerList.success) {
    client.setQueryData(BANNERS_QUERY_KEY, bannerList.data);
  }
  // What the page's own queries add is what its data block carries.
  const sent = new Set(
    client
      .getQueryCache()
      .getAll()
      .map((q) => q.queryHash),
  );

  await pageFetch.run(fetch, () => Promise.allSettled(ask(client, zone.id, address)));
  const { query, dataRoutes } = createStaticHandler(routes, { basename: BASENAME });
  const context = await query(new Request(address), {
    // The shell's loader reads the browser (the profile's data block, the stored zone) and the
    // page's loader has run above: the routes get their results, their modules are loaded.
    dataStrategy: async ({ matches }) =>
      Object.fromEntries(
        await Promise.all(
          matches.map(async (m) => [m.route.id, await m.resolve(() => (m.route.id === SHELL_ROUTE_ID ? shell : null))]),
        ),
      ),
  });
  // A redirect or an error: the console shows those itself.
  if (context instanceof Response || context.errors) return null;
  // A query that failed is drawn by the page as the console would draw it while asking: left to it.
  const queries = client.getQueryCache().getAll();
  if (queries.some((q) => q.state.status !== 'success')) return null;

  const html = renderToString(
    <StrictMode>
      <Providers queryClient={client}>
        <StaticRouterProvider router={createStaticRouter(dataRoutes, context)} context={context} hydrate={false} />
      </Providers>
    </StrictMode>,
  );
  const state: ConsolePageState = {
    queries: queries
      .filter((q) => !sent.has(q.queryHash))
      .map((q) => ({ key: [...q.queryKey], data: q.state.data, updatedAt: q.state.dataUpdatedAt })),
  };
  return { html, state: JSON.stringify(state) };
};
