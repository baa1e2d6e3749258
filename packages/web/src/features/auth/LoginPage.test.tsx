import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { rememberLastRoute } from '../../app/storage';
import { buildClientConfig, buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { afterLoginPath, normalizeRedirect } from './after-login';
import { LoginPage, samlAddress } from './LoginPage';

const profile = buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme' }), buildZone({ id: 2, name: 'Beta' })] });
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/self': (req) => {
      const auth = req.headers.authorization ?? '';
      const [email, password] = Buffer.from(auth.replace('Basic ', ''), 'base64').toString().split(':');
      if (email === 'ada@example.com' && password === 'correct horse') return { body: profile };
      // After the code step, the session cookie (here: no Basic header) reads the profile.
      if (!auth && mfaVerified) return { body: profile };
      if (email === 'mfa@example.com') return { status: 401, body: { code: 'auth.mfa_required', message: 'Code.' } };
      if (email === 'locked@example.com')
        return { status: 403, body: { code: 'auth.locked', message: 'Your account is locked.' } };
      if (email === 'broken@example.com') return { status: 500, body: { message: 'stack trace' } };
      if (email === 'new@example.com') return { status: 403, body: { code: 'auth.email_unverified', message: VERIFY } };
      return { status: 401, body: { code: 'auth.invalid_credentials', message: 'Invalid email or password.' } };
    },
    'GET /api/user/issaml': (req) => {
      const email = req.query.get('email') ?? '';
      return {
        body: email.endsWith('@sso.example')
          ? { saml: true, redirect: '/api/saml/u/login' }
          : { saml: false, redirect: null },
      };
    },
    'POST /api/users/verification-email': () => ({ body: { message: 'A new link is on its way.' } }),
    'GET /api/user/gettfa': () => ({ body: { tfa_type: 'google', enrol_required: false, email_sent: false } }),
    'POST /api/verifyTfa': (req) => {
      if ((JSON.parse(req.body) as { tfa_code: string }).tfa_code !== '123456') {
        return {
          status: 401,
          body: { code: 'mfa.invalid_code', message: 'This code is not valid. Check it and try again.' },
        };
      }
      mfaVerified = true;
      return { body: { signed_in: true } };
    },
    'GET /api/shared/js/config': () => ({ body: { ...config, password_reset_enabled: passwordResetOn } }),
  });
  api.configure({ baseUrl: server.url });
});

const VERIFY = 'Your user account requires email verification. Please check your email to verify your account.';
let passwordResetOn = false;
let mfaVerified = false;
const config = buildClientConfig();

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

function renderLogin(entry: string) {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <p>landed</p> },
    ],
    entry,
  );
}

async function signIn(email: string, password: string) {
  await userEvent.type(screen.getByLabelText(/Email/), email);
  await userEvent.type(screen.getByLabelText(/Password/), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('login page', () => {
  it('tells a user whose session expired that unsaved changes are gone', () => {
    renderLogin('/login?err=session-expired&redirect=%2Fdevices%3Fo%3D1');
    expect(
      screen.getByText('Your session has expired. When you login again, unsaved changes will no longer be available.'),
    ).toBeInTheDocument();
  });

  it('asks a new user to verify their email', () => {
    renderLogin('/login?err=verification_email_sent');
    expect(
      screen.getByText(
        'Your user account requires email verification. Please check your email to verify your account.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the generic failure after a refused single sign-on', () => {
    renderLogin('/login?err=saml_failed');
    expect(
      screen.getByText('An error was encountered during login. Please contact support if this issue persists.'),
    ).toBeInTheDocument();
  });

  it('carries a console redirect to the identity provider’s sign-in address', () => {
    expect(samlAddress('/api/saml/u/login?o=2', '/devices?o=2')).toBe(
      '/api/saml/u/login?o=2&redirect=%2Fdevices%3Fo%3D2',
    );
    expect(samlAddress('/api/saml/u/login', 'https://evil.example')).toBe('/api/saml/u/login');
  });

  it('shows no notice without err', () => {
    renderLogin('/login');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(document.title).toBe('Login · Patchwell');
  });

  it('requires both fields and a valid email before calling the server', async () => {
    renderLogin('/login');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText(/Email/), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByText('Must be a valid email.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path !== '/api/shared/js/config')).toHaveLength(0);
  });

  it('asks whether the address signs in through its identity provider before the password', async () => {
    renderLogin('/login?o=2');
    await userEvent.type(screen.getByLabelText(/Email/), 'Ada@Example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    const asked = server.requests.filter((r) => r.path === '/api/user/issaml');
    expect(asked.at(-1)?.query.get('email')).toBe('ada@example.com');
    expect(asked.at(-1)?.query.get('o')).toBe('2');
  });

  it("shows the server's message for wrong credentials and for a locked account", async () => {
    renderLogin('/login');
    await signIn('ada@example.com', 'wrong');
    expect(await screen.findByText('Invalid email or password.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/Email/));
    await signIn('locked@example.com', 'x');
    expect(await screen.findByText('Your account is locked.')).toBeInTheDocument();
  });

  it('offers to resend the verification link to an unverified sign-up', async () => {
    renderLogin('/login');
    await signIn('new@example.com', 'the right password');
    expect(await screen.findByText(VERIFY)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('A new link is on its way.')).toBeInTheDocument();
    const sent = server.requests.filter((r) => r.path === '/api/users/verification-email');
    expect(JSON.parse(sent.at(-1)!.body)).toEqual({ email: 'new@example.com' });
  });

  it('links to /forgot-password only when the server offers password reset', async () => {
    const first = renderLogin('/login');
    await screen.findByRole('button', { name: 'Log In' });
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/shared/js/config')).toBe(true));
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
    first.unmount();
    passwordResetOn = true;
    renderLogin('/login');
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    passwordResetOn = false;
  });

  it('shows the generic login failure for anything unexpected', async () => {
    renderLogin('/login');
    await signIn('broken@example.com', 'x');
    expect(
      await screen.findByText('An error was encountered during login. Please contact support if this issue persists.'),
    ).toBeInTheDocument();
  });

  it('signs in with the lowercased email as Basic credentials and follows a valid redirect', async () => {
    const { router } = renderLogin('/login?redirect=%2Fdevices%2F5%3Fo%3D2');
    await signIn('Ada@Example.com', 'correct horse');
    expect(await screen.findByText('landed')).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/devices/5?o=2');
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('ada@example.com:correct horse').toString('base64')}`);
  });

  it('ignores an unsafe redirect and returns to the remembered route instead', async () => {
    rememberLastRoute('/reports/overview?o=2');
    const { router } = renderLogin('/login?redirect=https%3A%2F%2Fevil.example%2F');
    await signIn('ada@example.com', 'correct horse');
    expect(await screen.findByText('landed')).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/reports/overview?o=2');
  });
});

describe('where sign-in leads', () => {
  it('prefers the redirect, then the last route, then the chosen zone’s dashboard', () => {
    const input = { profile, requestedZoneId: 2, storedZoneId: undefined };
    expect(afterLoginPath({ ...input, redirect: '/software?o=1', lastRoute: '/devices?o=1' })).toBe('/software?o=1');
    expect(afterLoginPath({ ...input, redirect: '//evil.example', lastRoute: '/devices?o=1' })).toBe('/devices?o=1');
    expect(afterLoginPath({ ...input, redirect: null, lastRoute: null })).toBe('/dashboard?o=2');
  });

  it('accepts a redirect that includes the /console base path', () => {
    expect(normalizeRedirect('/console/devices?o=1')).toBe('/devices?o=1');
    expect(normalizeRedirect('/console/')).toBeNull();
    expect(normalizeRedirect('evil.example/x')).toBeNull();
  });
});

describe('login page with MFA', () => {
  it('asks a user with MFA for a code after the password, then signs in', async () => {
    renderLogin('/login?o=2');
    await signIn('mfa@example.com', 'correct horse');
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    await screen.findByText('Enter the 6-digit code from your authenticator app.');
    await userEvent.type(screen.getByLabelText('Code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This code is not valid.');
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    expect(screen.getByLabelText('Recovery code')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Recovery code'));
    await userEvent.type(screen.getByLabelText('Recovery code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('landed')).toBeInTheDocument();
  });
});
