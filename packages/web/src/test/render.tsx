import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers } from '../app/Providers';

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
}

/** Render routes in a memory router under the app's providers (Mantine in test mode). */
export function renderRoutes(routes: RouteObject[], initialEntry: string, queryClient = testQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
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
