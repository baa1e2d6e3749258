import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import { queryClient as defaultQueryClient } from './query-client';
import { requestedZoneId } from './zone';

/** Starts a page's queries for a zone and address (the server's drawing of a page runs them too, ssr/render-page.tsx). */
export type PageDataAsk = (client: QueryClient, zoneId: number, url: URL) => Promise<unknown>[];

/**
 * A page's route loader that puts the data its first render shows in the query cache, asked
 * beside the shell's loader. The page's rows or figures are then drawn in the first render,
 * which React slices (main.tsx), instead of in a second one when the answers arrive, which a
 * query's store subscription makes one long task. `ask` starts the page's queries
 * (`client.ensureQueryData`) for the zone of the address; a failure is left to the page's own
 * query, which shows it.
 */
export function pageDataLoader(ask: PageDataAsk, client: QueryClient = defaultQueryClient) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    // Without a zone the shell's loader redirects to the address with one; this runs again then.
    const zoneId = requestedZoneId(url.searchParams);
    if (zoneId !== undefined) await Promise.allSettled(ask(client, zoneId, url));
    return null;
  };
}

/**
 * How long a page's data from its loader counts as fresh: the page's query, mounted right
 * after, shows it without asking again (with TanStack's default of 0 it asked the same page
 * twice, and the second answer cost another render). Coming back to the page later asks anew.
 */
export const PAGE_DATA_FRESH_MS = 5_000;

/**
 * Such a loader runs on the way into its page only: a new page, sort or filter of a list is
 * the page's own query (it keeps the rows shown while the next ones load), not a navigation
 * that waits.
 */
export function onTheWayIn({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}
