import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DeferredModalsHost } from '../ui/modals-host';
import { DeferredNotificationsHost } from '../ui/notifications-host';
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
        {/* Mounted with the first snackbar (ui/notifications-host.ts). */}
        <DeferredNotificationsHost />
        {/* Mounted with the first confirmation asked for (ui/modals-host.ts). */}
        <DeferredModalsHost />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
