import { PERMISSION_QUERY_TIMEOUT_MS, ROLE_QUERY_TIMEOUT_MS } from '@patchwell/core/constants';
import { ZPermissionsInfo, ZRbacRoleList } from '@patchwell/core/zones/zones.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { TimeoutError } from '../../api/errors';
import { shouldRetry } from '../../app/query-client';

// A timed-out request already waited its full time: fail then instead of waiting again.
const retryUnlessTimedOut = (failureCount: number, error: unknown) =>
  !(error instanceof TimeoutError) && shouldRetry(failureCount, error);

/** `GET /api/rbacroles?o=`: the fixed roles and what each grants; times out after 6 s. */
export function useRbacRoles(zoneId: number | undefined) {
  return useQuery({
    queryKey: ['rbacroles', zoneId],
    queryFn: ({ signal }) =>
      api.request('/api/rbacroles', {
        query: { o: zoneId },
        schema: ZRbacRoleList,
        timeoutMs: ROLE_QUERY_TIMEOUT_MS,
        signal,
      }),
    staleTime: Infinity,
    retry: retryUnlessTimedOut,
    meta: { onError: 'none' },
  });
}

/** `GET /api/permissions`: resources and their actions; times out after 5 s. */
export function usePermissionsInfo() {
  return useQuery({
    queryKey: ['permissions'],
    queryFn: ({ signal }) =>
      api.request('/api/permissions', {
        schema: ZPermissionsInfo,
        timeoutMs: PERMISSION_QUERY_TIMEOUT_MS,
        signal,
      }),
    staleTime: 5 * 60_000,
    retry: retryUnlessTimedOut,
    meta: { onError: 'none' },
  });
}
