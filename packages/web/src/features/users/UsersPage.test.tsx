import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { UsersPage } from './UsersPage';

const user = (id: number, firstname: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  uuid: `u-${id}`,
  firstname,
  lastname: 'Example',
  email: `${firstname.toLowerCase()}@example.com`,
  status,
  locked: false,
  tfa_enabled: false,
  account_rbac_role: 'no-global-access',
  role: { id: 2, name: 'Read Only' },
  created_at: '2026-01-01T00:00:00Z',
  last_signin_at: null,
  ...extra,
});

const me = buildProfile();
/** The same administrator in a zone on Basic, which gives only Zone Administrator and Read Only. */
const onBasic = buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme', parent_id: 1, plan: 'patch' })] });
let profile = me;
const LINK = 'http://127.0.0.1:8080/console/accept-invite?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/self': () => ({ body: profile }),
    'GET /api/users': () => ({
      body: [
        user(7, 'Ada', 'active', { role: { id: 1, name: 'Zone Administrator' } }),
        user(20, 'Bob', 'active', { locked: true }),
        user(21, 'Cy', 'pending-invite'),
        user(22, 'Di', 'disabled'),
      ],
    }),
    'DELETE /api/users/20': () => ({ status: 204 }),
    'PUT /api/users/20': () => ({ body: {} }),
    'POST /api/inviteUser': (req) => {
      const body = JSON.parse(req.body) as { email: string };
      if (body.email === 'ada@example.com') {
        return { status: 409, body: { errors: { email: ['This user already exists in this Zone'] } } };
      }
      if (body.email === 'outbox@example.com') {
        return {
          status: 201,
          body: { invitation_id: 2, user_id: 31, status: 'pending-invite', mail: 'queued', accept_link: LINK },
        };
      }
      return { status: 201, body: { invitation_id: 1, user_id: 30, status: 'pending-invite' } };
    },
    'POST /api/users/21/resend-invitation': () => ({
      body: { invitation_id: 3, user_id: 21, status: 'pending-invite', mail: 'queued', accept_link: null },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const renderPage = () =>
  renderInShell([{ path: '/settings/users', element: <UsersPage /> }], '/settings/users?o=1', { profile: me });

const rowOf = (name: string) => screen.getByRole('cell', { name }).closest('tr')!;

describe('zone users', () => {
  it('shows statuses as badges and offers no actions on oneself', async () => {
    renderPage();
    await screen.findByRole('cell', { name: 'Bob Example' });
    expect(within(rowOf('Bob Example')).getByText('Active')).toBeInTheDocument();
    expect(within(rowOf('Bob Example')).getByText('Locked')).toBeInTheDocument();
    expect(within(rowOf('Cy Example')).getByText('Pending invite')).toBeInTheDocument();
    expect(within(rowOf('Di Example')).getByText('Disabled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for Ada Example' })).not.toBeInTheDocument();
  });

  it('removes a user only after the confirmation', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Bob Example' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', '/api/users/20')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Bob Example' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Remove User' })).getByRole('button', { name: 'Remove' }),
    );
    expect(await screen.findByText('Success: The user has been removed.')).toBeInTheDocument();
    expect(calls('DELETE', '/api/users/20')[0]!.query.get('o')).toBe('1');
  });

  it('changes a role and refetches the profile', async () => {
    renderPage();
    const before = calls('GET', '/api/users/self').length;
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Bob Example' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Role' });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'New role' }), 'Zone Operator');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Role' }));
    expect(await screen.findByText('Success: The role of Bob Example has been changed.')).toBeInTheDocument();
    expect(JSON.parse(calls('PUT', '/api/users/20').at(-1)!.body)).toEqual({ role_id: 4 });
    await waitFor(() => expect(calls('GET', '/api/users/self').length).toBeGreaterThan(before));
  });

  it('offers only the roles the zone’s plan gives, and says which plan brings the others', async () => {
    profile = onBasic;
    try {
      renderInShell([{ path: '/settings/users', element: <UsersPage /> }], '/settings/users?o=1', { profile });
      await userEvent.click(await screen.findByRole('button', { name: 'Actions for Bob Example' }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Change Role' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change Role' });
      const roles = within(dialog).getByRole('combobox', { name: /^New role/ });
      const enabled = within(roles)
        .getAllByRole('option')
        .filter((o) => !(o as HTMLOptionElement).disabled)
        .map((o) => o.textContent);
      expect(enabled).toEqual(['Zone Administrator', 'Read Only']);
      expect(
        within(dialog).getByText(
          'Role-based access is not included in your plan. Upgrade to the Standard plan to enable this feature.',
        ),
      ).toBeInTheDocument();
    } finally {
      profile = me;
    }
  });

  it("invites by email and role, and shows 'This user already exists in this Zone'", async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(dialog).findByText('Role is required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'Ada@Example.com');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /^Role/ }), 'Read Only');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(dialog).findByText('This user already exists in this Zone')).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByRole('textbox', { name: /^Email/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'new@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Success: An invitation has been sent to new@example.com.')).toBeInTheDocument();
    expect(JSON.parse(calls('POST', '/api/inviteUser').at(-1)!.body)).toEqual({ email: 'new@example.com', role_id: 2 });
  });

  it('says when the invitation waits in the outbox and offers its link to copy', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'outbox@example.com');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /^Role/ }), 'Read Only');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'No mail relay is configured, so the invitation e-mail to outbox@example.com waits in the outbox.',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Invitation link' })).toHaveValue(LINK);
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite User' })).not.toBeInTheDocument());
  });

  it('resends a pending invitation and says where its link is', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Cy Example' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Resend Invitation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('cy@example.com waits in the outbox');
    expect(
      within(dialog).getByText('A global administrator can copy the link from the outbox in Global setup.'),
    ).toBeInTheDocument();
    expect(calls('POST', '/api/users/21/resend-invitation')).toHaveLength(1);
  });
});
