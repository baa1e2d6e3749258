import type { Profile } from '@patchwell/core/auth/profile.schema';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { CONSOLE_TEXTS } from '../texts';
import { buildProfile, buildZone } from '../test/factories';
import { renderRoutes } from '../test/render';
import { Providers } from './Providers';
import { startTestServer } from '../test/server';
import { recordedEvents } from './analytics';
import { queryClient } from './query-client';
import { routerOptions, routes } from './routes';
import { storedCurrentOrg } from './storage';

const acme = buildZone({ id: 1, name: 'Acme' });
const beta = buildZone({ id: 2, name: 'Beta' });

const state: { session: 'valid' | 'expired'; profile: Profile | 'fails'; logouts: number } = {
  session: 'valid',
  profile: buildProfile({ orgs: [acme, beta] }),
  logouts: 0,
};

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/is-authenticated': () =>
      state.session === 'valid'
        ? { body: true }
        : { status: 401, body: { code: 'auth.session_expired', message: 'Expired' } },
    'GET /api/users/self': () =>
      state.profile === 'fails' ? { status: 500, body: { message: 'boom' } } : { body: state.profile },
    'GET /api/logout': () => {
      state.logouts += 1;
      return { status: 204 };
    },
    'GET /api/banners': () => ({ body: [] }),
    'GET /api/servers': () => ({ body: { data: [], size: 0 } }),
    'GET /api/servergroups': () => ({ body: [] }),
    'GET /api/events': () => ({ body: { data: [], size: 0, size_capped: false } }),
    'GET /api/users': () => ({ body: [] }),
    'GET /api/orgs/1/packages': () => ({ body: { data: [], size: 0 } }),
    'GET /api/orgs/2/packages': () => ({ body: { data: [], size: 0 } }),
    'GET /api/dashboard': () => ({
      body: {
        devices: { total: 0, online: 0, offline: 0, needs_reboot: 0 },
        by_os: [],
        compliance: { compliant: 0, pending: 0, needs_attention: 0 },
        patches: { pending: 0, critical: 0, high: 0 },
      },
    }),
    'POST /api/orgs': (req) => ({
      status: 201,
      body: {
        ...buildZone({ id: 3, name: (JSON.parse(req.body) as { name: string }).name }),
        user_count: 1,
        role_name: 'Zone Administrator',
      },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  queryClient.clear();
  state.session = 'valid';
  state.profile = buildProfile({ orgs: [acme, beta] });
  state.logouts = 0;
});

function open(entry: string) {
  return renderRoutes(routes, entry, queryClient, routerOptions);
}

const at = (router: ReturnType<typeof open>['router']) => router.state.location.pathname + router.state.location.search;

async function settle(router: ReturnType<typeof open>['router'], expected: string) {
  // The first visit of a page loads its lazy module, which a busy runner transforms slowly.
  await waitFor(() => expect(at(router)).toBe(expected), { timeout: 15_000 });
}

describe('signed-in routes', () => {
  // First in the file: React Router warns once per module.
  it('render the first page without React Router’s missing HydrateFallback warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const { router } = open('/devices');
      await settle(router, '/devices?o=1');
      const messages = warn.mock.calls.map((args) => args.map(String).join(' '));
      expect(messages.filter((m) => m.includes('HydrateFallback'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('send a visitor without a session to login with the path to return to and err=session-expired', async () => {
    state.session = 'expired';
    const { router } = open('/devices?o=1');
    await settle(router, `/login?redirect=${encodeURIComponent('/devices?o=1')}&err=session-expired`);
    expect(await screen.findByText(/Your session has expired/)).toBeInTheDocument();
  });

  it('put the chosen zone in the URL, store it, and show the page’s empty state', async () => {
    const { router } = open('/devices');
    await settle(router, '/devices?o=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Devices' })).toBeInTheDocument();
    expect(await screen.findByText(CONSOLE_TEXTS.devices.emptyBody)).toBeInTheDocument();
    expect(storedCurrentOrg()).toBe(1);
    await waitFor(() => expect(document.title).toBe('Devices · Patchwell'));
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2026 Patchwell contributors');
  });

  it('read the org alias and replace a zone the user does not have', async () => {
    const first = open('/software?org=2');
    await settle(first.router, '/software?o=2');
    first.unmount();
    const second = open('/software?o=99');
    await settle(second.router, '/software?o=2'); // the stored zone from the previous visit
  });

  it('log out and return to login when the profile cannot be loaded', async () => {
    state.profile = 'fails';
    const { router } = open('/reports?o=1');
    await settle(router, `/login?redirect=${encodeURIComponent('/reports?o=1')}`);
    expect(state.logouts).toBe(1);
  });

  it('record a page view for each navigation', async () => {
    const { router } = open('/software?o=1');
    await screen.findByRole('heading', { level: 1, name: 'Software' });
    await waitFor(() =>
      expect(recordedEvents().at(-1)).toMatchObject({
        type: 'page_view',
        path: '/software',
        search: '?o=1',
        title: 'Software · Patchwell',
      }),
    );
    expect(window.__patchwellPageViews).toBe(recordedEvents());
    await router.navigate('/devices?o=1');
    await waitFor(() =>
      expect(recordedEvents().at(-1)).toMatchObject({ path: '/devices', title: 'Devices · Patchwell' }),
    );
  });

  it('switch zones keeping the route and changing only o', async () => {
    const { router } = open('/reports/overview?o=1');
    await screen.findByRole('heading', { name: 'Overview Report' });
    await userEvent.click(screen.getByRole('button', { name: /Zone: Acme/ }));
    await userEvent.click(
      within(await screen.findByRole('list', { name: 'Select a zone' })).getByRole('button', { name: 'Beta' }),
    );
    await settle(router, '/reports/overview?o=2');
    expect(storedCurrentOrg()).toBe(2);
  });

  it('create a zone from the organisation menu, reload the profile and switch to the new zone', async () => {
    const created = buildZone({ id: 3, name: 'Gamma' });
    const { router } = open('/reports/overview?o=1');
    await screen.findByRole('heading', { name: 'Overview Report' }, { timeout: 3000 });
    await userEvent.click(screen.getByRole('button', { name: /Zone: Acme/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create New Zone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Zone' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Zone name/ }), 'Gamma');
    state.profile = buildProfile({ orgs: [acme, beta, created] });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Zone' }));
    await settle(router, '/reports/overview?o=3');
    expect(await screen.findByText('Success: Your new zone has been created.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Zone: Gamma/ })).toBeInTheDocument();
  });

  it('log out through the account menu', async () => {
    const { router } = open('/dashboard?o=1');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await settle(router, '/login');
    expect(state.logouts).toBe(1);
  });
});

describe('guards and redirects', () => {
  it('send / to /login', async () => {
    const { router } = open('/');
    await settle(router, '/login');
  });

  it.each([
    ['/reports-overview?o=1', '/reports/overview?o=1'],
    ['/reports-noncompliant?o=1', '/reports/needs-attention?o=1'],
    ['/activity-log?o=1', '/reports/activity-log?o=1'],
    ['/device-detail?s=42&o=1', '/devices/42?o=1'],
    ['/group-editor?gid=7&o=1', '/manage/groups/7?o=1'],
    ['/group-editor?o=1', '/manage/groups/create-group?o=1'],
    ['/create-group?o=1', '/manage/groups/create-group?o=1'],
    ['/device-detail?o=1', '/devices?o=1'],
    ['/system-management?tab=policies&o=1', '/manage/policies?o=1'],
    ['/policy-patch-editor?o=1', '/manage/policies/create?o=1'],
    ['/system-management?tab=groups&o=1', '/manage/groups?o=1'],
    ['/community-worklets?o=1', '/manage/worklet-catalog?o=1'],
    ['/manage/maintenance-windows?o=1', '/manage/policies?o=1'],
  ])('redirect the legacy route %s to %s and track the visit', async (from, to) => {
    const { router } = open(from);
    await settle(router, to);
    expect(recordedEvents()).toContainEqual(expect.objectContaining({ type: 'deprecated_route', from, to }));
  });

  it('map the settings tab query to its page (api becomes keys)', async () => {
    const { router } = open('/settings?tab=api&o=1');
    await settle(router, '/settings/keys?o=1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Keys' })).toBeInTheDocument();
  });

  it('fall back to the profile settings without Billing.read', async () => {
    state.profile = buildProfile({ orgs: [acme], permissions: { '1': ['Endpoint.read'] } });
    const { router } = open('/settings/billing?o=1');
    await settle(router, '/settings/profile?o=1');
  });

  it('fall back to /manage when the tasks page is switched off by automated remediation', async () => {
    const { router } = open('/manage/tasks?o=1');
    await settle(router, '/manage?o=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'System' })).toBeInTheDocument();
  });

  it('show the 404 page on the global view to anyone but a global administrator with an account', async () => {
    const { router } = open('/global?o=1');
    expect(await screen.findByRole('heading', { name: '404 - Page Not Found' })).toBeInTheDocument();
    expect(at(router)).toBe('/global?o=1');
  });

  it('open global setup for a global administrator, on the zones tab', async () => {
    state.profile = buildProfile({ orgs: [acme, beta], is_global_admin: true, account_rbac_role: 'global-admin' });
    const { router } = open('/global?o=1');
    await settle(router, '/global/setup/zones?o=1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Zones' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('open the create-zone page only when the current zone’s parent is on Complete', async () => {
    const globalAdmin = { is_global_admin: true, account_rbac_role: 'global-admin' as const };
    state.profile = buildProfile({
      orgs: [acme, beta],
      ...globalAdmin,
      parent_org: [{ id: 1, plan: 'manage', trial_end_time: null, trial_expired: false }],
    });
    const first = open('/global/setup/zones/create-zone?o=1');
    expect(await screen.findByRole('heading', { name: '404 - Page Not Found' })).toBeInTheDocument();
    first.unmount();
    queryClient.clear();
    state.profile = buildProfile({ orgs: [acme, beta], ...globalAdmin });
    open('/global/setup/zones/create-zone?o=1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Create Zone' })).toBeInTheDocument();
  });

  it('show the 404 page for unknown routes and for password pages without their flag', async () => {
    open('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 - Page Not Found' })).toBeInTheDocument();
  });

  it('hide /forgot-password behind the first authentication milestone', async () => {
    open('/forgot-password');
    expect(await screen.findByRole('heading', { name: '404 - Page Not Found' })).toBeInTheDocument();
  });

  it.each(['/settings/users', '/settings/billing', '/settings', '/global/setup/users', '/manage/remediations'])(
    'open %s under the /console basename without o on that page of the chosen zone',
    async (path) => {
      state.profile = buildProfile({ orgs: [acme, beta], is_global_admin: true, account_rbac_role: 'global-admin' });
      const router = createMemoryRouter(routes, {
        initialEntries: [`/console${path}`],
        basename: '/console',
        ...routerOptions,
      });
      render(
        <Providers queryClient={queryClient} env="test">
          <RouterProvider router={router} />
        </Providers>,
      );
      await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
      await waitFor(() => expect(router.state.location.search).toBe('?o=1'), { timeout: 3000 });
      expect(router.state.location.pathname).not.toContain('/console/console');
      expect(router.state.location.pathname.startsWith(`/console${path}`) || path === '/settings').toBe(true);
      expect(screen.queryByRole('heading', { name: '404 - Page Not Found' })).not.toBeInTheDocument();
    },
  );

  it('send a signed-in user from /signup to the dashboard', async () => {
    const { router } = open('/signup');
    await settle(router, '/dashboard?o=1');
  });
});
