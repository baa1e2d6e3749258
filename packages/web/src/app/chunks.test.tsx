import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
