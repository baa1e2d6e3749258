import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { AccountCreatedPage } from './AccountCreatedPage';
import { LoginPage } from './LoginPage';
import { SignUpPage } from './SignUpPage';

let server: Awaited<ReturnType<typeof startTestServer>>;
const signups = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/signup');

beforeAll(async () => {
  server = await startTestServer({
    'POST /api/signup': (req) => {
      const body = JSON.parse(req.body) as { email: string; company: string };
      if (body.email === 'taken@example.com') {
        return { status: 409, body: { errors: { email: ['This email address is already in use.'] } } };
      }
      return {
        status: 201,
        body: {
          account_id: 9,
          user_id: 10,
          zone_id: 11,
          email: body.email,
          redirect: '/login?err=verification_email_sent',
        },
      };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

function renderSignUp() {
  return renderRoutes(
    [
      { path: '/signup', element: <SignUpPage /> },
      { path: '/account-created', element: <AccountCreatedPage /> },
      { path: '/login', element: <LoginPage /> },
    ],
    '/signup',
  );
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

async function fillValid(email = 'grace@example.com') {
  await userEvent.type(field('First name'), 'Grace');
  await userEvent.type(field('Last name'), 'Hopper');
  await userEvent.type(field('Company name'), 'Navy Labs');
  await userEvent.type(field('Email'), email);
  await userEvent.type(field('Password'), 'a long enough password');
  await userEvent.type(field('Confirm password'), 'a long enough password');
  await userEvent.type(field('Number of endpoints'), '25');
}

describe('sign-up page', () => {
  it('shows each field’s message from the shared schema when submitted empty', async () => {
    renderSignUp();
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Company name is required')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required.').length).toBeGreaterThanOrEqual(3);
    expect(screen.getByText('One or more fields have an error. Please check and try again.')).toBeInTheDocument();
    expect(signups()).toHaveLength(0);
  });

  it('rejects long names, a short password, a mismatch and a bad endpoint count', async () => {
    renderSignUp();
    await userEvent.type(field('First name'), 'x'.repeat(32));
    await userEvent.type(field('Email'), 'nope');
    await userEvent.type(field('Password'), 'short');
    await userEvent.type(field('Confirm password'), 'other');
    await userEvent.type(field('Number of endpoints'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('First name must be under 32 characters.')).toBeInTheDocument();
    expect(screen.getByText('Must be a valid email.')).toBeInTheDocument();
    expect(screen.getByText('Value must be at least 12 characters.')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(screen.getByText('Value must be a number between 1 and 1000000.')).toBeInTheDocument();
  });

  it('shows the server’s field errors on their fields', async () => {
    renderSignUp();
    await fillValid('taken@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('This email address is already in use.')).toBeInTheDocument();
    expect(field('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('creates the account and goes to the login page, which asks to verify the address', async () => {
    renderSignUp();
    await fillValid();
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(
      await screen.findByText(
        'Your user account requires email verification. Please check your email to verify your account.',
      ),
    ).toBeInTheDocument();
    const sent = JSON.parse(signups().at(-1)!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({ firstname: 'Grace', company: 'Navy Labs', endpoints: 25 });
  });

  it('asks before leaving with unsaved changes', async () => {
    const { router } = renderSignUp();
    await userEvent.type(field('First name'), 'Grace');
    await userEvent.click(screen.getByRole('link', { name: 'Log in' }));
    expect(await screen.findByText('You are about to leave with unsaved changes. Are you sure?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/signup');
    await userEvent.click(screen.getByRole('link', { name: 'Log in' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Log in to Patchwell' })).toBeInTheDocument();
  });
});
