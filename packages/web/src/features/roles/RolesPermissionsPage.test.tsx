import { ROLE_GRANTS, ZONE_ROLES } from '@patchwell/core/zones/roles';
import { RESOURCE_ACTIONS } from '@patchwell/core/zones/permissions';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { RolesPermissionsPage } from './RolesPermissionsPage';

const roles = ZONE_ROLES.map((r) => ({
  id: r.id,
  key: r.key,
  name: r.name,
  description: `${r.name} description`,
  permissions: [...ROLE_GRANTS[r.id]],
}));
const permissions = { resources: RESOURCE_ACTIONS, actions: ['create', 'read'], mine: {} };

const state = { roles: 'ok' as 'ok' | 'fails', permissions: 'ok' as 'ok' | 'fails' };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/rbacroles': () => (state.roles === 'ok' ? { body: roles } : { status: 404, body: { message: 'no' } }),
    'GET /api/permissions': () =>
      state.permissions === 'ok' ? { body: permissions } : { status: 400, body: { message: 'no' } },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

afterEach(() => {
  state.roles = 'ok';
  state.permissions = 'ok';
});

function renderPage() {
  return renderInShell(
    [{ path: '/global/setup/roles-and-permissions', element: <RolesPermissionsPage /> }],
    '/global/setup/roles-and-permissions?o=1',
    { profile: buildProfile({ is_global_admin: true, account_rbac_role: 'global-admin' }) },
  );
}

describe('roles and permissions', () => {
  it('shows resources as grouped rows, roles as columns and check marks where granted', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Permissions granted by each role' });
    const headRow = within(table).getAllByRole('row')[0]!;
    const headers = within(headRow)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Permission', ...ZONE_ROLES.map((r) => r.name)]);
    expect(within(table).getByRole('columnheader', { name: 'Patch Policy' })).toBeInTheDocument();

    const billingModify = within(table).getByRole('rowheader', { name: 'Billing Modify' }).closest('tr')!;
    const cells = within(billingModify)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // Zone Administrator, Read Only, Billing Administrator, Zone Operator, Patch Operator
    expect(cells).toEqual(['Granted', 'Not granted', 'Granted', 'Not granted', 'Not granted']);
    expect(screen.getByText('Read Only description')).toBeInTheDocument();
  });

  it('says when the roles failed to load', async () => {
    state.roles = 'fails';
    renderPage();
    expect(
      await screen.findByText('Information about Roles failed to load. Please try reloading the page.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when the permissions failed to load', async () => {
    state.permissions = 'fails';
    renderPage();
    expect(
      await screen.findByText('Information about Permissions failed to load. Please try reloading the page.'),
    ).toBeInTheDocument();
  });
});
