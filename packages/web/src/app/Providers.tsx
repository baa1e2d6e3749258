import { SNACKBAR_DURATION_MS, SNACKBAR_LIMIT } from '@patchwell/core/constants';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DeferredModalsHost } from './modals-host';
import { queryClient as defaultQueryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';

/** Theme, snackbars (5 at most, 6 s, bottom right), confirm modals (once loaded) and the query cache. */
export function Providers({
  children,
  queryClient = defaultQueryClient,
  env = 'default',
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  env?: 'default' | 'test';
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env} defaultColorScheme="light">
        <Notifications limit={SNACKBAR_LIMIT} autoClose={SNACKBAR_DURATION_MS} position="bottom-right" />
        {/* Mounted once a page beyond the login page has loaded it (app/modals-host.ts). */}
        <DeferredModalsHost />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
