import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLOCK_TEXTS } from '@patchwell/core/auth/unlock.schema';
import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { api } from '../../api/client';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { UnlockPage } from './UnlockPage';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'POST /api/users/unlock': (req) =>
      (JSON.parse(req.body) as { token: string }).token === 'good'
        ? { body: { email: 'ada@example.com' } }
        : { status: 410, body: AUTH_ERRORS.unlockGone },
  });
  api.configure({ baseUrl: server.url });
});
afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const open = (query: string) =>
  renderRoutes(
    [
      { path: '/unlock', element: <UnlockPage /> },
      { path: '/login', element: <p>login</p> },
    ],
    `/unlock${query}`,
  );

describe('the unlock page of the mailed link', () => {
  it('unlocks only on a click, then says so and offers sign-in', async () => {
    open('?token=good');
    expect(await screen.findByRole('heading', { name: UNLOCK_TEXTS.pageTitle })).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path === '/api/users/unlock')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: UNLOCK_TEXTS.button }));
    expect(await screen.findByText(UNLOCK_TEXTS.done)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: UNLOCK_TEXTS.signIn })).toHaveAttribute('href', '/login');
  });

  it('shows the server’s words for a spent link, and asks for the link again without a token', async () => {
    const { unmount } = open('?token=spent');
    await userEvent.click(await screen.findByRole('button', { name: UNLOCK_TEXTS.button }));
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_ERRORS.unlockGone.message);
    unmount();
    open('');
    expect(await screen.findByRole('alert')).toHaveTextContent(UNLOCK_TEXTS.missingToken);
  });
});
