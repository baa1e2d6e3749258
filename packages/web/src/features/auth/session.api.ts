import { ZIsAuthenticated, ZProfile, type Profile } from '@patchwell/core/auth/profile.schema';
import { PROFILE_CACHE_MS } from '@patchwell/core/constants';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';

// The signed-in session: what the guards and the shell ask on every page. The signed-out
// flows (sign-up, invitations, password reset) are auth.api.ts, with schemas no signed-in
// page needs.

export const PROFILE_QUERY_KEY = ['users', 'self'] as const;

/** `GET /api/users/is-authenticated`: resolves when the session is valid, throws ApiError(401) when not. */
export function checkSession(): Promise<true> {
  return api.request('/api/users/is-authenticated', { schema: ZIsAuthenticated, skipAuthCheck: true });
}

/** `GET /api/users/self?o=`: the signed-in user's profile. */
export function fetchProfile(zoneId?: number, signal?: AbortSignal): Promise<Profile> {
  return api.request('/api/users/self', {
    query: { o: zoneId },
    schema: ZProfile,
    signal,
    skipAuthCheck: true,
  });
}

/** The profile query: cached, refetched only when never loaded or older than 30 minutes. */
export function profileQuery(zoneId?: number) {
  return {
    queryKey: PROFILE_QUERY_KEY,
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchProfile(zoneId, signal),
    staleTime: PROFILE_CACHE_MS,
    gcTime: Infinity,
    // A failure logs the user out (spec A section 4): one quick second try for a blip.
    retry: (failureCount: number, error: unknown) =>
      failureCount < 1 && !(error instanceof ApiError && error.status < 500),
    retryDelay: 300,
    meta: { onError: 'none' as const },
  };
}

/** The cached profile, if any (no request). */
export function cachedProfile(client: QueryClient): Profile | undefined {
  return client.getQueryData<Profile>(PROFILE_QUERY_KEY);
}

/** `GET /api/logout`: ends the session. */
export async function logout(): Promise<void> {
  await api.request('/api/logout', { skipAuthCheck: true });
}
