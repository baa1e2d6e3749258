import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { ZoneMembersPanel } from './components/ZoneMembersPanel';
import { CreateUserPage, UserEditorPage } from './UserEditorPage';

const acme = buildZone({ id: 1, name: 'Acme' });
const beta = buildZone({ id: 2, name: 'Beta' });
const admin = buildProfile({ orgs: [acme, beta], is_global_admin: true, account_rbac_role: 'global-admin' });

const accountZone = (z: typeof acme) => ({ ...z, user_count: 1, role_name: 'Global Administrator' });
const grace = {
  id: 12,
  uuid: 'u-12',
  firstname: 'Grace',
  lastname: 'Hopper',
  email: 'grace@example.com',
  status: 'active',
  locked: true,
  tfa_enabled: false,
  account_rbac_role: 'no-global-access',
  created_at: '2026-01-01T00:00:00Z',
  last_signin_at: null,
  zones: [{ zone_id: 1, zone_name: 'Acme', role_id: 2, role_name: 'Read Only' }],
};

let server: Awaited<ReturnType<typeof startTestServer>>;
const sent = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path).map((r) => JSON.parse(r.body || 'null'));

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/self': () => ({ body: admin }),
    'GET /api/accounts/1/zones': () => ({ body: [accountZone(acme), accountZone(beta)] }),
    'GET /api/accounts/1/users': () => ({ body: [grace] }),
    'GET /api/accounts/1/users/12': () => ({ body: grace }),
    'POST /api/accounts/1/users': (req) => {
      const body = JSON.parse(req.body) as { email: string };
      if (body.email === 'taken@example.com') {
        return {
          status: 409,
          body: { code: 'users.email_taken', errors: { email: ['This email address is already in use.'] } },
        };
      }
      if (body.email === 'outbox@example.com') {
        const invitation = { mail: 'queued', accept_link: 'http://127.0.0.1:8080/console/accept-invite?token=t0k3n' };
        return { status: 201, body: { ...grace, id: 14, email: body.email, invitation } };
      }
      return { status: 201, body: { ...grace, id: 13, email: body.email } };
    },
    'PUT /api/accounts/1/users/12': (req) => {
      const body = JSON.parse(req.body) as { zones?: { zone_id: number }[] };
      if (body.zones?.some((z) => z.zone_id === 2)) {
        return { status: 409, body: { errors: { 'zones[1].zone_id': ['This user already exists in this Zone'] } } };
      }
      return { body: grace };
    },
    'POST /api/users/unlockaccount': () => ({ status: 204 }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const routes = [
  { path: '/global/setup/users/create-user', element: <CreateUserPage /> },
  { path: '/global/setup/users/:userId', element: <UserEditorPage /> },
  { path: '/global/setup/users', element: <p>users list</p> },
];
const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
const row = (n: number) => screen.getByRole('group', { name: `Zone ${n}` });
const select = (n: number, label: 'Zone' | 'Role') =>
  within(row(n)).getByRole('combobox', { name: `${label} (Zone ${n})` });

async function fillNames(email = 'ada@example.com') {
  await userEvent.type(field('First name'), 'Ada');
  await userEvent.type(field('Last name'), 'Lovelace');
  await userEvent.type(field('Email'), email);
}

describe('create user', () => {
  it('asks for a zone and a role in every zone/role row', async () => {
    renderInShell(routes, '/global/setup/users/create-user?o=1', { profile: admin });
    await screen.findByRole('heading', { name: 'Create User' });
    await fillNames();
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await within(row(1)).findByText('Zone is required')).toBeInTheDocument();
    expect(within(row(1)).getByText('Role is required')).toBeInTheDocument();
    expect(screen.getByText('One or more fields have an error. Please check and try again.')).toBeInTheDocument();
    expect(sent('POST', '/api/accounts/1/users')).toHaveLength(0);
  });

  it("refuses the same zone twice: 'This user already exists in this Zone'", async () => {
    renderInShell(routes, '/global/setup/users/create-user?o=1', { profile: admin });
    await screen.findByRole('heading', { name: 'Create User' });
    await fillNames();
    await waitFor(() => expect(within(select(1, 'Zone')).getByRole('option', { name: 'Beta' })).toBeInTheDocument());
    await userEvent.selectOptions(select(1, 'Zone'), 'Beta');
    await userEvent.selectOptions(select(1, 'Role'), 'Read Only');
    await userEvent.click(screen.getByRole('button', { name: 'Add Zone' }));
    await userEvent.selectOptions(select(2, 'Zone'), 'Beta');
    await userEvent.selectOptions(select(2, 'Role'), 'Zone Operator');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await within(row(2)).findByText('This user already exists in this Zone')).toBeInTheDocument();
    expect(within(row(1)).queryByText('This user already exists in this Zone')).not.toBeInTheDocument();
  });

  it("shows 'This email address is already in use.' on the email field", async () => {
    renderInShell(routes, '/global/setup/users/create-user?o=1', { profile: admin });
    await screen.findByRole('heading', { name: 'Create User' });
    await fillNames('taken@example.com');
    await waitFor(() => expect(within(select(1, 'Zone')).getByRole('option', { name: 'Acme' })).toBeInTheDocument());
    await userEvent.selectOptions(select(1, 'Zone'), 'Acme');
    await userEvent.selectOptions(select(1, 'Role'), 'Read Only');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('This email address is already in use.')).toBeInTheDocument();
    expect(field('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('creates the user with numeric zone and role ids and returns to the list', async () => {
    const { router } = renderInShell(routes, '/global/setup/users/create-user?o=1', { profile: admin });
    await screen.findByRole('heading', { name: 'Create User' });
    await fillNames('new@example.com');
    await waitFor(() => expect(within(select(1, 'Zone')).getByRole('option', { name: 'Beta' })).toBeInTheDocument());
    await userEvent.selectOptions(select(1, 'Zone'), 'Beta');
    await userEvent.selectOptions(select(1, 'Role'), 'Patch Operator');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?o=1');
    expect(sent('POST', '/api/accounts/1/users').at(-1)).toEqual({
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'new@example.com',
      account_rbac_role: 'no-global-access',
      zones: [{ zone_id: 2, role_id: 5 }],
    });
  });
});

describe('creating a user without a mail relay', () => {
  it('shows that the invitation waits in the outbox with its link, then returns to the list', async () => {
    renderInShell(routes, '/global/setup/users/create-user?o=1', { profile: admin });
    await screen.findByRole('heading', { name: 'Create User' });
    await fillNames('outbox@example.com');
    await waitFor(() => expect(within(select(1, 'Zone')).getByRole('option', { name: 'Beta' })).toBeInTheDocument());
    await userEvent.selectOptions(select(1, 'Zone'), 'Beta');
    await userEvent.selectOptions(select(1, 'Role'), 'Patch Operator');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('outbox@example.com waits in the outbox');
    expect(within(dialog).getByRole('textbox', { name: 'Invitation link' })).toHaveValue(
      'http://127.0.0.1:8080/console/accept-invite?token=t0k3n',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('users list')).toBeInTheDocument();
  });
});

describe('user editor', () => {
  it("puts the server's zone error on its row and keeps the email read-only", async () => {
    renderInShell(routes, '/global/setup/users/12?o=1', { profile: admin });
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Email/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Add Zone' }));
    await userEvent.selectOptions(select(2, 'Zone'), 'Beta');
    await userEvent.selectOptions(select(2, 'Role'), 'Read Only');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(row(2)).findByText('This user already exists in this Zone')).toBeInTheDocument();
  });

  it('unlocks a locked user after a confirmation', async () => {
    renderInShell(routes, '/global/setup/users/12?o=1', { profile: admin });
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    expect(screen.getByText('Locked')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Success: Grace Hopper has been unlocked.')).toBeInTheDocument();
    expect(sent('POST', '/api/users/unlockaccount').at(-1)).toEqual({ userid: 12 });
  });
});

describe('users of a zone in the zone editor', () => {
  it("asks for a user and a role: 'A user is required', 'Role is required'", async () => {
    renderInShell([{ path: '*', element: <ZoneMembersPanel accountId={1} zoneId={1} /> }], '/x?o=1', {
      profile: admin,
    });
    expect(await screen.findByRole('cell', { name: 'Grace Hopper' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('A user is required')).toBeInTheDocument();
    expect(screen.getByText('Role is required')).toBeInTheDocument();
  });
});
