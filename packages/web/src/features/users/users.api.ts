import {
  ZAccountUser,
  ZAccountUserList,
  ZInviteUserResult,
  ZZoneUserList,
  type CreateAccountUserBody,
  type InviteUserBody,
  type UpdateAccountUserBody,
  type UpdateSelfBody,
  type UpdateZoneUserBody,
} from '@patchwell/core/users/users.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** User calls (docs/api/zones-users-contract.md, "Users"). */
export const userKeys = {
  all: ['users-list'] as const,
  zoneUsers: (zoneId: number) => ['users-list', 'zone', zoneId] as const,
  accountUsers: (accountId: number) => ['users-list', 'account', accountId] as const,
  accountUser: (accountId: number, userId: number) => ['users-list', 'account', accountId, userId] as const,
};

// --- zone scope (Settings › Users, Settings › Profile) ---

/** `GET /api/users?o=`: the users of the zone with their role there. */
export function useZoneUsers(zoneId: number) {
  return useQuery({
    queryKey: userKeys.zoneUsers(zoneId),
    queryFn: ({ signal }) => api.request('/api/users', { query: { o: zoneId }, schema: ZZoneUserList, signal }),
  });
}

/** `PUT /api/users/{id}?o=` by the caller on themself: names, email, password. */
export function updateSelf(zoneId: number, userId: number, body: UpdateSelfBody) {
  return api.request(`/api/users/${userId}`, { method: 'PUT', query: { o: zoneId }, body });
}

/** `PUT /api/users/{id}?o=` on another user of the zone: role and/or status. */
export function updateZoneUser(zoneId: number, userId: number, body: UpdateZoneUserBody) {
  return api.request(`/api/users/${userId}`, { method: 'PUT', query: { o: zoneId }, body });
}

/** `DELETE /api/users/{id}?o=`: removes the user from the zone. */
export function removeZoneUser(zoneId: number, userId: number) {
  return api.request(`/api/users/${userId}`, { method: 'DELETE', query: { o: zoneId } });
}

/** `POST /api/users/unlockaccount?o=`: clears a lockout after failed sign-ins. */
export function unlockUser(zoneId: number, userId: number) {
  return api.request('/api/users/unlockaccount', { method: 'POST', query: { o: zoneId }, body: { userid: userId } });
}

/** `POST /api/inviteUser?o=`: sends an invitation into the zone. */
export function inviteUser(zoneId: number, body: InviteUserBody) {
  return api.request('/api/inviteUser', { method: 'POST', query: { o: zoneId }, body, schema: ZInviteUserResult });
}

// --- account scope (global setup) ---

/** `GET /api/accounts/{accountId}/users`: every user of the account with their zones. */
export function useAccountUsers(accountId: number) {
  return useQuery({
    queryKey: userKeys.accountUsers(accountId),
    queryFn: ({ signal }) => api.request(`/api/accounts/${accountId}/users`, { schema: ZAccountUserList, signal }),
  });
}

/** `GET /api/accounts/{accountId}/users/{userId}`. */
export function useAccountUser(accountId: number, userId: number) {
  return useQuery({
    queryKey: userKeys.accountUser(accountId, userId),
    queryFn: ({ signal }) =>
      api.request(`/api/accounts/${accountId}/users/${userId}`, { schema: ZAccountUser, signal }),
    meta: { onError: 'none' },
  });
}

/** `POST /api/accounts/{accountId}/users`: creates the user and sends the invitation. */
export function createAccountUser(accountId: number, body: CreateAccountUserBody) {
  return api.request(`/api/accounts/${accountId}/users`, { method: 'POST', body, schema: ZAccountUser });
}

/** `PUT /api/accounts/{accountId}/users/{userId}`: `zones` is the full list of zone/role pairs. */
export function updateAccountUser(accountId: number, userId: number, body: UpdateAccountUserBody) {
  return api.request(`/api/accounts/${accountId}/users/${userId}`, { method: 'PUT', body });
}

/** `DELETE /api/accounts/{accountId}/users/{userId}`. */
export function deleteAccountUser(accountId: number, userId: number) {
  return api.request(`/api/accounts/${accountId}/users/${userId}`, { method: 'DELETE' });
}

/** `POST /api/users/{userId}/resend-invitation?o=`: a new invitation link for a pending member. */
export function resendInvitation(zoneId: number, userId: number) {
  return api.request(`/api/users/${userId}/resend-invitation`, {
    method: 'POST',
    query: { o: zoneId },
    body: {},
    schema: ZInviteUserResult,
  });
}
