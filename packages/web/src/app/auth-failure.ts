import { isApiError } from '../api/errors';
import { loginPath } from './paths';

const PUBLIC_PATH =
  /^\/(login|signup|account-created|forgot-password|password-reset|accept-invite|unlock|verify-email)?(\/|\?|$)/;

// The session check comes with the auth API module, fetched only when a call fails.
const checkSessionLazily = () => import('../features/auth/session.api').then((m) => m.checkSession());

/**
 * After a 401 or 403 from any call but the session check (spec A section 8): ask whether the
 * session is still valid; if it is not, go to login with the current path and
 * err=session-expired. A 403 on a valid session is a missing permission and changes nothing.
 */
export function createAuthFailureHandler({
  navigate,
  currentPath,
  check = checkSessionLazily,
  onExpired = () => undefined,
}: {
  navigate: (to: string) => void;
  /** The current console path and query. */
  currentPath: () => string;
  /** The session check; rejects with ApiError(401) when the session is gone. */
  check?: () => Promise<unknown>;
  /** Runs before going to login (the app forgets cached data). */
  onExpired?: () => void;
}): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => {
    if (running) return running;
    running = check()
      .then(
        () => undefined,
        (error: unknown) => {
          const here = currentPath();
          if (!isApiError(error, 401) || PUBLIC_PATH.test(here)) return;
          onExpired();
          navigate(loginPath({ redirect: here, expired: true }));
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
}
