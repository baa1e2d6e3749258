import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { rememberLastRoute } from '../../app/storage';
import { buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { afterLoginPath, normalizeRedirect } from './after-login';
import { LoginPage } from './LoginPage';

const profile = buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme' }), buildZone({ id: 2, name: 'Beta' })] });
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/self': (req) => {
      const auth = req.headers.authorization ?? '';
      const [email, password] = Buffer.from(auth.replace('Basic ', ''), 'base64').toString().split(':');
      if (email === 'ada@example.com' && password === 'correct horse') return { body: profile };
      if (email === 'locked@example.com')
        return { status: 403, body: { code: 'auth.locked', message: 'Your account is locked.' } };
      if (email === 'broken@example.com') return { status: 500, body: { message: 'stack trace' } };
      return { status: 401, body: { code: 'auth.invalid_credentials', message: 'Invalid email or password.' } };
    },
  });
  api.configure({ baseUrl: server.url });
});

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
    expect(server.requests).toHaveLength(0);
  });

  it("shows the server's message for wrong credentials and for a locked account", async () => {
    renderLogin('/login');
    await signIn('ada@example.com', 'wrong');
    expect(await screen.findByText('Invalid email or password.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/Email/));
    await signIn('locked@example.com', 'x');
    expect(await screen.findByText('Your account is locked.')).toBeInTheDocument();
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
