import {
  ZGetTfa,
  ZRecoveryCodes,
  ZTfaSetup,
  ZTfaSignedIn,
  ZTfaStatus,
  ZZoneSecurity,
  type MfaFactorType,
} from '@patchwell/core/auth/mfa.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

/**
 * Multi-factor authentication calls: the sign-in's code step (public, carried by the
 * challenge cookie the password step set), the caller's own factor, the zone's requirements,
 * and an administrator's reset.
 */
export const mfaKeys = {
  own: ['mfa', 'self'] as const,
  zoneSecurity: (zoneId: number) => ['mfa', 'zone', zoneId] as const,
};

// Sign-in step: 401s here are the step's own answers, not an ended session.
export const signInStep = {
  getTfa: (email: string) =>
    api.request('/api/user/gettfa', { query: { email }, schema: ZGetTfa, skipAuthCheck: true }),
  verify: (code: string) =>
    api.request('/api/verifyTfa', {
      method: 'POST',
      body: { tfa_code: code },
      schema: ZTfaSignedIn,
      skipAuthCheck: true,
    }),
  setup: (type: MfaFactorType) =>
    api.request('/api/user/tfa/setup', { method: 'POST', body: { type }, schema: ZTfaSetup, skipAuthCheck: true }),
  confirm: (code: string) =>
    api.request('/api/user/tfa/confirm', {
      method: 'POST',
      body: { tfa_code: code },
      schema: ZTfaSignedIn,
      skipAuthCheck: true,
    }),
};

/** `GET /api/users/self/tfa?o=`. */
export function useOwnTfa(zoneId: number | undefined) {
  return useQuery({
    queryKey: mfaKeys.own,
    queryFn: ({ signal }) => api.request('/api/users/self/tfa', { query: { o: zoneId }, schema: ZTfaStatus, signal }),
    meta: { onError: 'none' },
  });
}

export const ownTfa = {
  setup: (type: MfaFactorType) =>
    api.request('/api/users/self/tfa/setup', { method: 'POST', body: { type }, schema: ZTfaSetup }),
  confirm: (code: string) =>
    api.request('/api/users/self/tfa/confirm', { method: 'POST', body: { tfa_code: code }, schema: ZRecoveryCodes }),
  sendCode: () => api.request('/api/users/self/tfa/send-code', { method: 'POST' }),
  disable: (zoneId: number | undefined, code: string | undefined) =>
    api.request('/api/users/self/tfa/disable', {
      method: 'POST',
      query: { o: zoneId },
      body: code ? { tfa_code: code } : {},
    }),
  regenerate: (zoneId: number | undefined, code: string | undefined) =>
    api.request('/api/users/self/tfa/recovery-codes', {
      method: 'POST',
      query: { o: zoneId },
      body: code ? { tfa_code: code } : {},
      schema: ZRecoveryCodes,
    }),
};

/** `GET /api/orgs/{id}/security`. */
export function useZoneSecurity(zoneId: number) {
  return useQuery({
    queryKey: mfaKeys.zoneSecurity(zoneId),
    queryFn: ({ signal }) => api.request(`/api/orgs/${zoneId}/security`, { schema: ZZoneSecurity, signal }),
    meta: { onError: 'none' },
  });
}

/** `PUT /api/orgs/{id}/require-mfa` or `require-sso`. */
export function useSetZoneRequirement(zoneId: number, which: 'mfa' | 'sso') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      api.request(`/api/orgs/${zoneId}/require-${which}`, {
        method: 'PUT',
        body: { enabled },
        schema: ZZoneSecurity,
      }),
    onSuccess: (data) => queryClient.setQueryData(mfaKeys.zoneSecurity(zoneId), data),
    meta: { onError: 'none' },
  });
}

/** `POST /api/users/{id}/tfa/reset?o=`: an administrator resets a user's MFA. */
export function resetUserMfa(zoneId: number, userId: number) {
  return api.request(`/api/users/${userId}/tfa/reset`, { method: 'POST', query: { o: zoneId } });
}
