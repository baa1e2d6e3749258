import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_TEXTS as T } from '@patchwell/core/auth/password-reset.schema';
import { TEXTS } from '@patchwell/core/texts';
import { api } from '../../api/client';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { ForgotPasswordPage, PasswordResetPage } from './PasswordPages';
import { VerifyEmailPage } from './VerifyEmailPage';

let server: Awaited<ReturnType<typeof startTestServer>>;
const gone = { code: 'auth.reset_link_expired', message: T.linkGone };
const posts = (path: string) => server.requests.filter((r) => r.method === 'POST' && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/passwordReset': (req) =>
      req.query.get('token') === 'good'
        ? { body: { valid: true, email: 'ada@example.com' } }
        : { status: 410, body: gone },
    'POST /api/passwordReset': (req) => {
      const body = JSON.parse(req.body) as { email?: string; token?: string };
      if (body.email) return { body: { message: T.requested } };
      return body.token === 'good'
        ? { body: { email: 'ada@example.com', sessions_ended: 3 } }
        : { status: 410, body: gone };
    },
    'POST /api/users/verify-email': (req) =>
      (JSON.parse(req.body) as { token: string }).token === 'good'
        ? { body: { email: 'ada@example.com' } }
        : { status: 410, body: { code: 'auth.verification_link_expired', message: T.verificationGone } },
  });
  api.configure({ baseUrl: server.url });
});
afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const open = (entry: string) =>
  renderRoutes(
    [
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/password-reset', element: <PasswordResetPage /> },
      { path: '/verify-email', element: <VerifyEmailPage /> },
      { path: '/login', element: <p>login</p> },
    ],
    entry,
  );

describe('/forgot-password', () => {
  it('checks the address, then sends it and says what happens next', async () => {
    open('/forgot-password');
    await userEvent.click(await screen.findByRole('button', { name: T.send }));
    expect(await screen.findByText(TEXTS.validation.required)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Email/), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: T.send }));
    expect(await screen.findByText(TEXTS.validation.email)).toBeInTheDocument();
    expect(posts('/api/passwordReset')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText(/^Email/));
    await userEvent.type(screen.getByLabelText(/^Email/), 'Ada@Example.com');
    await userEvent.click(screen.getByRole('button', { name: T.send }));
    expect(await screen.findByText(T.requested)).toBeInTheDocument();
    expect(await screen.findByText(TEXTS.success.passwordResetEmailSent)).toBeInTheDocument();
    expect(JSON.parse(posts('/api/passwordReset').at(-1)!.body)).toEqual({ email: 'ada@example.com' });
  });
});

describe('/password-reset', () => {
  it('shows the form for a live link, checks the passwords, and reports the sessions ended', async () => {
    const before = posts('/api/passwordReset').length;
    open('/password-reset?token=good');
    expect(await screen.findByText(T.resetFor('ada@example.com'))).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'other');
    await userEvent.click(screen.getByRole('button', { name: T.resetSubmit }));
    expect(await screen.findByText('Value must be at least 12 characters.')).toBeInTheDocument();
    expect(posts('/api/passwordReset')).toHaveLength(before);

    await userEvent.clear(screen.getByLabelText(/^Password/));
    await userEvent.type(screen.getByLabelText(/^Password/), 'a long new passphrase');
    await userEvent.clear(screen.getByLabelText(/^Confirm password/));
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a long new passphrase');
    await userEvent.click(screen.getByRole('button', { name: T.resetSubmit }));
    expect(await screen.findByText(T.resetDone(3))).toBeInTheDocument();
    expect(JSON.parse(posts('/api/passwordReset').at(-1)!.body)).toEqual({
      token: 'good',
      password: 'a long new passphrase',
      password_confirmation: 'a long new passphrase',
    });
  });

  it('says why a dead link cannot be used and offers a new one; a link without a token too', async () => {
    const { unmount } = open('/password-reset?token=spent');
    expect(await screen.findByRole('alert')).toHaveTextContent(T.linkGone);
    expect(screen.getByRole('link', { name: T.askAgain })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByRole('button', { name: T.resetSubmit })).not.toBeInTheDocument();
    unmount();
    open('/password-reset');
    expect(await screen.findByRole('alert')).toHaveTextContent(T.missingToken);
  });
});

describe('/verify-email', () => {
  it('verifies only on a click, and shows the server’s words for a spent link', async () => {
    const { unmount } = open('/verify-email?token=good');
    await screen.findByRole('button', { name: T.verifyButton });
    expect(posts('/api/users/verify-email')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: T.verifyButton }));
    expect(await screen.findByText(T.verifyDone)).toBeInTheDocument();
    unmount();
    open('/verify-email?token=spent');
    await userEvent.click(await screen.findByRole('button', { name: T.verifyButton }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(T.verificationGone));
  });
});
