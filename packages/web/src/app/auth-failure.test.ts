import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { createAuthFailureHandler } from './auth-failure';

const expired = () =>
  Promise.reject(new ApiError(401, { code: 'auth.session_expired' }, '/api/users/is-authenticated'));

describe('after a 401 or 403', () => {
  it('goes to login with the current path and err=session-expired when the session is gone', async () => {
    const navigate = vi.fn();
    const onExpired = vi.fn();
    const handle = createAuthFailureHandler({ navigate, currentPath: () => '/devices?o=3', check: expired, onExpired });
    await handle();
    expect(onExpired).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Fdevices%3Fo%3D3&err=session-expired');
  });

  it('stays put when the session is still valid (a 403 is a missing permission)', async () => {
    const navigate = vi.fn();
    const handle = createAuthFailureHandler({
      navigate,
      currentPath: () => '/devices?o=3',
      check: () => Promise.resolve(true),
    });
    await handle();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('checks once for a burst of failures and never redirects away from public pages', async () => {
    const navigate = vi.fn();
    const check = vi.fn(expired);
    const handle = createAuthFailureHandler({ navigate, currentPath: () => '/login', check });
    await Promise.all([handle(), handle(), handle()]);
    expect(check).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
  });
});
