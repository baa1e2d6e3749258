import { ZProfile, type Profile } from '@patchwell/core/auth/profile.schema';
import { ZIsSamlResult, type IsSamlResult } from '@patchwell/core/auth/saml-signin.schema';
import { ZSignUpResult, type SignUpBody, type SignUpResult } from '@patchwell/core/auth/signup.schema';
import {
  ZAcceptInvitationResult,
  ZInvitation,
  type AcceptInvitationBody,
  type AcceptInvitationResult,
  type Invitation,
} from '@patchwell/core/users/users.schema';
import { ZUnlockAccountResult, type UnlockAccountResult } from '@patchwell/core/auth/unlock.schema';
import {
  ZPasswordResetDone,
  ZPasswordResetRequested,
  ZPasswordResetTokenState,
  ZVerifyEmailResult,
  type PasswordResetBody,
  type PasswordResetDone,
  type PasswordResetRequested,
  type PasswordResetTokenState,
  type VerifyEmailResult,
} from '@patchwell/core/auth/password-reset.schema';
import { api } from '../../api/client';

function basicCredentials(email: string, password: string): string {
  const bytes = new TextEncoder().encode(`${email.trim().toLowerCase()}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/**
 * Sign in: `GET /api/users/self` with Basic credentials (lowercased email). The server sets
 * the session cookie and returns the profile. 401/403/429 carry a message to show.
 */
export function login(email: string, password: string, zoneId?: number): Promise<Profile> {
  return api.request('/api/users/self', {
    query: { o: zoneId },
    headers: { Authorization: basicCredentials(email, password) },
    schema: ZProfile,
    skipAuthCheck: true,
  });
}

/**
 * `GET /api/user/issaml`: whether the address signs in through its identity provider, and
 * the address to send the browser to (`/api/saml/{uuid}/login?…`).
 */
export function checkSaml(email: string, zoneId?: number): Promise<IsSamlResult> {
  return api.request('/api/user/issaml', { query: { email, o: zoneId }, schema: ZIsSamlResult, skipAuthCheck: true });
}

/** `POST /api/signup`: creates the account; the user signs in after following the mailed verification link. */
export function signUp(body: SignUpBody): Promise<SignUpResult> {
  return api.request('/api/signup', { method: 'POST', body, schema: ZSignUpResult, skipAuthCheck: true });
}

/** `GET /api/invitations/{token}` (public): the zone, inviter and whether a password is needed. */
export function fetchInvitation(token: string, signal?: AbortSignal): Promise<Invitation> {
  return api.request(`/api/invitations/${encodeURIComponent(token)}`, {
    schema: ZInvitation,
    signal,
    skipAuthCheck: true,
  });
}

/** `POST /api/invitations/{token}/accept`: joins the zone and signs the user in (cookie). */
export function acceptInvitation(token: string, body: AcceptInvitationBody): Promise<AcceptInvitationResult> {
  return api.request(`/api/invitations/${encodeURIComponent(token)}/accept`, {
    method: 'POST',
    body,
    schema: ZAcceptInvitationResult,
    skipAuthCheck: true,
  });
}

/** `POST /api/users/unlock` (public): lifts a sign-in lock with the token of the mailed link. */
export function unlockAccount(token: string): Promise<UnlockAccountResult> {
  return api.request('/api/users/unlock', {
    method: 'POST',
    body: { token },
    schema: ZUnlockAccountResult,
    skipAuthCheck: true,
  });
}

/** `POST /api/passwordReset {email}` (public): mails a reset link; the same answer for any address. */
export function requestPasswordReset(email: string): Promise<PasswordResetRequested> {
  return api.request('/api/passwordReset', {
    method: 'POST',
    body: { email },
    schema: ZPasswordResetRequested,
    skipAuthCheck: true,
  });
}

/** `GET /api/passwordReset?token=` (public): whether the mailed link still works (410 when not). */
export function checkPasswordResetToken(token: string, signal?: AbortSignal): Promise<PasswordResetTokenState> {
  return api.request('/api/passwordReset', {
    query: { token },
    schema: ZPasswordResetTokenState,
    signal,
    skipAuthCheck: true,
  });
}

/** `POST /api/passwordReset {token, password, password_confirmation}` (public): sets the new password. */
export function resetPassword(body: PasswordResetBody): Promise<PasswordResetDone> {
  return api.request('/api/passwordReset', { method: 'POST', body, schema: ZPasswordResetDone, skipAuthCheck: true });
}

/** `POST /api/users/verify-email` (public): proves a sign-up's address with the mailed token. */
export function verifyEmail(token: string): Promise<VerifyEmailResult> {
  return api.request('/api/users/verify-email', {
    method: 'POST',
    body: { token },
    schema: ZVerifyEmailResult,
    skipAuthCheck: true,
  });
}

/** `POST /api/users/verification-email` (public): mails a new verification link. */
export function resendVerification(email: string): Promise<PasswordResetRequested> {
  return api.request('/api/users/verification-email', {
    method: 'POST',
    body: { email },
    schema: ZPasswordResetRequested,
    skipAuthCheck: true,
  });
}
