import { TEXTS } from '../texts';

/**
 * Error codes and messages of sign-in, sessions and sign-up, as the API sends them in
 * `{ code, message }` bodies. The console matches on `code`; the messages are shown as is.
 */
export const AUTH_ERRORS = {
  /** 401: no session cookie at all. */
  unauthenticated: { code: 'auth.unauthenticated', message: 'You are not signed in.' },
  /** 401: the session ended (idle timeout, maximum lifetime, logged out elsewhere, user disabled). */
  sessionExpired: { code: 'auth.session_expired', message: TEXTS.login.sessionExpired },
  /** 401: wrong e-mail or password; the same answer whether or not the e-mail exists. */
  invalidCredentials: { code: 'auth.invalid_credentials', message: 'Invalid email or password.' },
  /**
   * 403: too many consecutive failures. The lock ends by itself after `minutes`; the user can
   * lift it sooner with the link mailed to them, or an administrator can unlock them.
   */
  locked: {
    code: 'auth.locked',
    message: (minutes: number) =>
      `This account is locked after too many failed sign-ins. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, ` +
      'or use the unlock link sent to its email address.',
  },
  /** 410: an unlock link that was used, replaced or has expired. */
  unlockGone: { code: 'auth.unlock_expired', message: 'This unlock link has expired or was already used.' },
  // 429s (too many sign-ins or sign-ups) are `auth.sign_in_rate_limited` and
  // `auth.sign_up_rate_limited` in the error catalogue; both answer with `auth.rate_limited`.
  /** 409 on sign-up, with `errors.email`. */
  emailTaken: { code: 'auth.email_taken', message: 'An account with this email already exists.' },
  /** 403: a state-changing request from another site. */
  crossSite: { code: 'csrf', message: 'This request came from another site and was refused.' },
} as const;
