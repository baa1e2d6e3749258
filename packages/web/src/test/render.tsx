import type { Profile } from '@patchwell/core/auth/profile.schema';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  createMemoryRouter,
  RouterProvider,
  type PatchRoutesOnNavigationFunction,
  type RouteObject,
} from 'react-router';
import { Providers } from '../app/Providers';
import { SHELL_ROUTE_ID } from '../app/shell-context';

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
}

/**
 * Render routes in a memory router under the app's providers (Mantine in test mode). The app's
 * `routes` go with its `routerOptions` (areas' routes discovered on navigation).
 */
export function renderRoutes(
  routes: RouteObject[],
  initialEntry: string,
  queryClient = testQueryClient(),
  options: { patchRoutesOnNavigation?: PatchRoutesOnNavigationFunction } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry], ...options });
  const result = render(
    <Providers queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient };
}

/** Render one element at `path` (a route that matches every path). */
export function renderAt(element: ReactNode, initialEntry = '/', queryClient = testQueryClient()) {
  return renderRoutes([{ path: '*', element }], initialEntry, queryClient);
}

/**
 * Render a signed-in page: the shell route (id 'shell') provides the profile and current
 * zone as its loader data, as the real shell loader does; `routes` are its children.
 */
export function renderInShell(
  routes: RouteObject[],
  initialEntry: string,
  context: { profile: Profile; zoneId?: number },
  queryClient = testQueryClient(),
) {
  const zone = context.profile.orgs.find((o) => o.id === context.zoneId) ?? context.profile.orgs[0];
  return renderRoutes(
    [
      {
        id: SHELL_ROUTE_ID,
        loader: () => ({ profile: context.profile, zone, zoneId: zone?.id }),
        HydrateFallback: () => null,
        children: routes,
      },
    ],
    initialEntry,
    queryClient,
  );
}
