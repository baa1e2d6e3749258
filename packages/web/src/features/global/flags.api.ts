import {
  ZFeatureFlagsState,
  ZZonePlan,
  type PutFeatureFlagsBody,
  type PutZonePlanBody,
} from '@patchwell/core/shell/flags.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { PROFILE_QUERY_KEY } from '../auth/session.api';
import { zoneKeys } from '../zones/zones.api';

/** Where flags are set: the account, or one of its zones. */
export type FlagScope = { accountId: number; zoneId: number | null };

const flagsPath = ({ accountId, zoneId }: FlagScope) =>
  zoneId === null ? `/api/accounts/${accountId}/flags` : `/api/accounts/${accountId}/zones/${zoneId}/flags`;

export const flagKeys = {
  scope: (scope: FlagScope) => ['flags', scope.accountId, scope.zoneId ?? 'account'] as const,
};

/** `GET /api/accounts/{accountId}/flags` or `…/zones/{zoneId}/flags`. */
export function useFeatureFlags(scope: FlagScope) {
  return useQuery({
    queryKey: flagKeys.scope(scope),
    queryFn: ({ signal }) => api.request(flagsPath(scope), { schema: ZFeatureFlagsState, signal }),
    meta: { onError: 'none' },
  });
}

/** `PUT …/flags`: sets (`true`/`false`) or removes (`null`) overrides; the profile's features follow. */
export function useSaveFeatureFlags(scope: FlagScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PutFeatureFlagsBody) =>
      api.request(flagsPath(scope), { method: 'PUT', body, schema: ZFeatureFlagsState }),
    onSuccess: (state) => {
      queryClient.setQueryData(flagKeys.scope(scope), state);
      void queryClient.invalidateQueries({ queryKey: ['flags', scope.accountId] });
      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
    },
  });
}

/** `PUT /api/accounts/{accountId}/zones/{zoneId}/plan` (until billing sets plans). */
export function useSaveZonePlan(accountId: number, zoneId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PutZonePlanBody) =>
      api.request(`/api/accounts/${accountId}/zones/${zoneId}/plan`, { method: 'PUT', body, schema: ZZonePlan }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: zoneKeys.accountZone(accountId, zoneId) });
      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
    },
  });
}
