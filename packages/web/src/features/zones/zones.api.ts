import { ZSessionSettings, type SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import {
  ZAccessKey,
  ZZone,
  ZZoneList,
  type CreateAccountZoneBody,
  type CreateZoneBody,
  type UpdateZoneBody,
} from '@patchwell/core/zones/zones.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

/**
 * Zone calls (docs/api/zones-users-contract.md, "Zones"). Calls about one zone carry that
 * zone as `o`, so the server checks the caller's role where the change happens.
 */
export const zoneKeys = {
  all: ['zones'] as const,
  accountZones: (accountId: number) => ['zones', 'account', accountId] as const,
  accountZone: (accountId: number, zoneId: number) => ['zones', 'account', accountId, zoneId] as const,
  accessKey: (zoneId: number) => ['zones', zoneId, 'access-key'] as const,
  sessionSettings: (zoneId: number) => ['zones', zoneId, 'session-settings'] as const,
  accountSessionSettings: (accountId: number) => ['zones', 'account', accountId, 'session-settings'] as const,
};

/** `POST /api/orgs?o=`: a zone beside `o` (under `o`'s parent), from the organisation menu. */
export function createZone(zoneId: number, body: CreateZoneBody) {
  return api.request('/api/orgs', { method: 'POST', query: { o: zoneId }, body, schema: ZZone });
}

/** `GET /api/accounts/{accountId}/zones`: every zone of the account with its user count. */
export function useAccountZones(accountId: number) {
  return useQuery({
    queryKey: zoneKeys.accountZones(accountId),
    queryFn: ({ signal }) => api.request(`/api/accounts/${accountId}/zones`, { schema: ZZoneList, signal }),
    meta: { onError: 'none' },
  });
}

/** `GET /api/accounts/{accountId}/zones/{zoneId}`. */
export function useAccountZone(accountId: number, zoneId: number) {
  return useQuery({
    queryKey: zoneKeys.accountZone(accountId, zoneId),
    queryFn: ({ signal }) => api.request(`/api/accounts/${accountId}/zones/${zoneId}`, { schema: ZZone, signal }),
    meta: { onError: 'none' },
  });
}

/** `POST /api/accounts/{accountId}/zones` (global setup). */
export function createAccountZone(accountId: number, body: CreateAccountZoneBody) {
  return api.request(`/api/accounts/${accountId}/zones`, { method: 'POST', body, schema: ZZone });
}

/** `PUT /api/accounts/{accountId}/zones/{zoneId}`: rename. */
export function updateAccountZone(accountId: number, zoneId: number, body: UpdateZoneBody) {
  return api.request(`/api/accounts/${accountId}/zones/${zoneId}`, { method: 'PUT', body, schema: ZZone });
}

/** `POST /api/orgs/{id}/disable|enable` (global administrators). */
export function useSetZoneDisabled(accountId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ zoneId, disabled }: { zoneId: number; disabled: boolean }) =>
      api.request(`/api/orgs/${zoneId}/${disabled ? 'disable' : 'enable'}`, { method: 'POST', query: { o: zoneId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: zoneKeys.accountZones(accountId) }),
  });
}

/** `GET /api/orgs/{id}/access-key`: the key agents enrol with (Organization.manage). */
export function useAccessKey(zoneId: number) {
  return useQuery({
    queryKey: zoneKeys.accessKey(zoneId),
    queryFn: ({ signal }) =>
      api.request(`/api/orgs/${zoneId}/access-key`, { query: { o: zoneId }, schema: ZAccessKey, signal }),
    meta: { onError: 'none' },
  });
}

/** `POST /api/orgs/{id}/access-key/rotate`: a new key; the old one stops enrolling agents at once. */
export function useRotateAccessKey(zoneId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.request(`/api/orgs/${zoneId}/access-key/rotate`, {
        method: 'POST',
        query: { o: zoneId },
        schema: ZAccessKey,
      }),
    onSuccess: (data) => queryClient.setQueryData(zoneKeys.accessKey(zoneId), data),
  });
}

/** Session settings of one zone, or of every zone of the account. */
export type SessionSettingsScope = { kind: 'zone'; zoneId: number } | { kind: 'account'; accountId: number };

function sessionSettingsRequest(scope: SessionSettingsScope) {
  return scope.kind === 'zone'
    ? { path: `/api/orgs/${scope.zoneId}/session-settings`, query: { o: scope.zoneId } }
    : { path: `/api/accounts/${scope.accountId}/session-settings`, query: {} };
}

function sessionSettingsKey(scope: SessionSettingsScope) {
  return scope.kind === 'zone'
    ? zoneKeys.sessionSettings(scope.zoneId)
    : zoneKeys.accountSessionSettings(scope.accountId);
}

/** `GET /api/orgs/{id}/session-settings` or `GET /api/accounts/{accountId}/session-settings`. */
export function useSessionSettings(scope: SessionSettingsScope) {
  const { path, query } = sessionSettingsRequest(scope);
  return useQuery({
    queryKey: sessionSettingsKey(scope),
    queryFn: ({ signal }) => api.request(path, { query, schema: ZSessionSettings, signal }),
    meta: { onError: 'none' },
  });
}

/** `PUT` of the same: maximum lifetime and idle timeout in minutes. */
export function useSaveSessionSettings(scope: SessionSettingsScope) {
  const queryClient = useQueryClient();
  const { path, query } = sessionSettingsRequest(scope);
  return useMutation({
    mutationFn: async (body: SessionSettings) => {
      await api.request(path, { method: 'PUT', query, body });
      return body;
    },
    onSuccess: (saved) => queryClient.setQueryData(sessionSettingsKey(scope), saved),
    meta: { onError: 'none' },
  });
}
