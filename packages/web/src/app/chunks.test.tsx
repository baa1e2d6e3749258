import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { renderRoutes } from '../test/render';
import { ChunkLoadError, lazyPage } from './chunks';
import { RouteError } from './RouteError';

describe('route errors', () => {
  it('ask to reload the app, in a modal that cannot be closed, when a page fails to download', async () => {
    const failing = lazyPage(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      () => () => null,
    );
    await expect(failing()).rejects.toBeInstanceOf(ChunkLoadError);
    renderRoutes(
      [{ path: '/', errorElement: <RouteError isInsideRoot={false} />, children: [{ index: true, lazy: failing }] }],
      '/',
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Reload Required');
    expect(screen.getByRole('button', { name: 'Reload Now' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /close/i })).not.toBeInTheDocument();
  });

  it("show 'Something Went Wrong - Please Reload' with 'Reload Now' for other failures", async () => {
    renderRoutes(
      [
        {
          path: '/',
          errorElement: <RouteError />,
          loader: () => {
            throw new Error('boom');
          },
          element: <p>never</p>,
        },
      ],
      '/',
    );
    expect(await screen.findByRole('heading', { name: 'Something Went Wrong - Please Reload' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Now' })).toBeInTheDocument();
  });
});

describe('vite:preloadError', () => {
  const preloadError = (payload: unknown) =>
    Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload });

  // Vite's build runs `import('./session.api').then((m) => m.checkSession())` whole inside its
  // preload helper: the session check's 401 arrives here. It once showed 'Reload Required'
  // on the login page after a sign-out, and hid the expired session from its handler.
  it('leaves an error of the code it loaded (an API answer) to its caller, with no reload modal', async () => {
    vi.resetModules();
    const { chunkFailure, onPreloadError } = await import('./chunks');
    const event = preloadError(new ApiError(401, { code: 'auth.unauthenticated' }, '/api/users/is-authenticated'));
    onPreloadError(event);
    expect(event.defaultPrevented).toBe(false);
    expect(chunkFailure.hasFailed()).toBe(false);
  });

  it('asks to reload when a chunk or its CSS fails to download', async () => {
    for (const failure of [
      new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/console/assets/Page-1.js'),
      new Error('Unable to preload CSS for /console/assets/Page-1.css'),
    ]) {
      vi.resetModules();
      const { chunkFailure, onPreloadError } = await import('./chunks');
      const event = preloadError(failure);
      onPreloadError(event);
      expect(event.defaultPrevented).toBe(true);
      expect(chunkFailure.hasFailed()).toBe(true);
    }
  });
});
