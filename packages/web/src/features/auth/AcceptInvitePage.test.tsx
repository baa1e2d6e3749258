import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { AcceptInvitePage } from './AcceptInvitePage';

const invitation = (needsPassword: boolean) => ({
  email: 'grace@example.com',
  zone_name: 'Beta',
  account_name: 'Acme',
  invited_by: 'Ada Lovelace',
  expires_at: '2026-03-08T12:00:00Z',
  needs_password: needsPassword,
});

let server: Awaited<ReturnType<typeof startTestServer>>;
const accepts = () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/accept'));

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/invitations/new-user': () => ({ body: invitation(true) }),
    'GET /api/invitations/member': () => ({ body: invitation(false) }),
    'GET /api/invitations/used': () => ({
      status: 410,
      body: { code: 'invitations.expired', message: 'This invitation has expired or was already used.' },
    }),
    'POST /api/invitations/new-user/accept': () => ({ body: { email: 'grace@example.com' } }),
    'POST /api/invitations/member/accept': () => ({
      status: 410,
      body: { code: 'invitations.expired', message: 'This invitation has expired or was already used.' },
    }),
    'GET /api/users/self': () => ({
      body: buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme' }), buildZone({ id: 2, name: 'Beta' })] }),
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

function open(token: string) {
  return renderRoutes(
    [
      { path: '/accept-invite', element: <AcceptInvitePage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    `/accept-invite?token=${token}`,
  );
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

describe('accepting an invitation', () => {
  it('asks a new user for names and a password, then opens the dashboard of the zone', async () => {
    const { router } = open('new-user');
    expect(await screen.findByText('Ada Lovelace invited you to join the zone Beta of Acme.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    await userEvent.type(field('First name'), 'Grace');
    await userEvent.type(field('Last name'), 'Hopper');
    await userEvent.type(field('Password'), 'short');
    await userEvent.type(field('Confirm password'), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('Value must be at least 12 characters.')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();

    await userEvent.clear(field('Password'));
    await userEvent.type(field('Password'), 'a long enough password');
    await userEvent.clear(field('Confirm password'));
    await userEvent.type(field('Confirm password'), 'a long enough password');
    await userEvent.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?o=2'));
    expect(JSON.parse(accepts().at(-1)!.body)).toEqual({
      firstname: 'Grace',
      lastname: 'Hopper',
      password: 'a long enough password',
      password_confirmation: 'a long enough password',
    });
  });

  it('shows the server message for a used or expired invitation', async () => {
    open('used');
    expect(await screen.findByText('This invitation has expired or was already used.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
  });

  it('lets an existing user accept without a form, and reports an invitation used meanwhile', async () => {
    open('member');
    await screen.findByText('Ada Lovelace invited you to join the zone Beta of Acme.');
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('This invitation has expired or was already used.')).toBeInTheDocument();
    expect(JSON.parse(accepts().at(-1)!.body)).toEqual({});
  });

  it('explains a link without a token', async () => {
    renderRoutes([{ path: '/accept-invite', element: <AcceptInvitePage /> }], '/accept-invite');
    expect(await screen.findByText(/This invitation link is not valid/)).toBeInTheDocument();
  });
});
