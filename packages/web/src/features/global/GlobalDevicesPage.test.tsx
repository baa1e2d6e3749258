import type { Profile } from '@patchwell/core/auth/profile.schema';
import type { GlobalDevice } from '@patchwell/core/devices/global-devices.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { queryClient } from '../../app/query-client';
import { routerOptions, routes } from '../../app/routes';
import { CONSOLE_TEXTS } from '../../texts';
import { buildDevice, buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';

const T = CONSOLE_TEXTS.globalDevices;
// Each test loads the shell, its guards and the page's chunks; on a loaded CI machine that
// takes longer than vitest's default 5 s per test.

const acme = buildZone({ id: 1, name: 'Acme' });
const beta = buildZone({ id: 2, name: 'Beta' });
const globalAdmin = { is_global_admin: true, account_rbac_role: 'global-admin' as const };
const flagOn = { features: { ...FEATURE_FLAGS, global_devices_table: true } };

const row = (id: number, name: string, zone: { id: number; name: string }): GlobalDevice => ({
  ...buildDevice({ id, name, display_name: name, hostname: name }),
  zone_id: zone.id,
  zone_name: zone.name,
});

const state: { profile: Profile; devices: GlobalDevice[]; size: number } = {
  profile: buildProfile(),
  devices: [],
  size: 0,
};

let server: Awaited<ReturnType<typeof startTestServer>>;
const listCalls = () => server.requests.filter((r) => r.path === '/api/accounts/1/devices');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/is-authenticated': () => ({ body: true }),
    'GET /api/users/self': () => ({ body: state.profile }),
    'GET /api/banners': () => ({ body: [] }),
    'GET /api/dashboard': () => ({
      body: {
        devices: { total: 0, online: 0, offline: 0, needs_reboot: 0 },
        by_os: [],
        compliance: { compliant: 0, pending: 0, needs_attention: 0 },
        patches: { pending: 0, critical: 0, high: 0 },
      },
    }),
    'GET /api/accounts/1/devices': () => ({ body: { data: state.devices, size: state.size } }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  queryClient.clear();
  server.requests.length = 0;
  state.profile = buildProfile({ orgs: [acme, beta], ...globalAdmin, ...flagOn });
  state.devices = [row(11, 'web-1', acme), row(21, 'db-1', beta)];
  state.size = 2;
});

const open = (entry: string) => renderRoutes(routes, entry, queryClient, routerOptions);
const at = (router: ReturnType<typeof open>['router']) => router.state.location.pathname + router.state.location.search;
const settle = (router: ReturnType<typeof open>['router'], expected: string) =>
  waitFor(() => expect(at(router)).toBe(expected), { timeout: 10_000 });

describe('/global/devices', () => {
  it('lists every zone’s devices with their zone, each linking to the device in its own zone', async () => {
    open('/global/devices?o=1');
    // The first test of the file loads the shell's and the page's chunks cold.
    expect(await screen.findByRole('heading', { level: 1, name: T.title }, { timeout: 10_000 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: T.tableLabel });
    expect(within(table).getByRole('cell', { name: 'Beta' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'db-1' })).toHaveAttribute('href', '/devices/21?o=2');
    expect(listCalls()[0]!.query.get('page')).toBe('0');
    expect(listCalls()[0]!.query.get('limit')).toBe('25');
  });

  it('sorts by zone and searches after the debounce, back on the first page', async () => {
    state.size = 120;
    const { router } = open('/global/devices?o=1&page=3');
    await screen.findByRole('table', { name: T.tableLabel }, { timeout: 10_000 });
    expect(listCalls().at(-1)!.query.get('page')).toBe('2');
    await userEvent.click(screen.getByRole('button', { name: T.zone }));
    await waitFor(() => expect(listCalls().at(-1)!.query.get('sort')).toBe('zone_name:asc'));
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');

    fireEvent.change(screen.getByRole('searchbox', { name: T.search }), { target: { value: 'beta' } });
    await waitFor(() => expect(listCalls().at(-1)!.query.get('search')).toBe('beta'));
    expect(at(router)).toBe('/global/devices?o=1&sort=zone_name%3Aasc&search=beta');
  });

  it('says when no zone has a device', async () => {
    state.devices = [];
    state.size = 0;
    open('/global/devices?o=1');
    expect(await screen.findByText(T.empty, {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('sends a global administrator without the flag to the requested zone’s dashboard', async () => {
    state.profile = buildProfile({ orgs: [acme, beta], ...globalAdmin });
    const { router } = open('/global/devices?o=2');
    await settle(router, '/dashboard?o=2');
    expect(listCalls()).toHaveLength(0);
  });

  it('sends a user who is not a global administrator to the dashboard, even with the flag', async () => {
    state.profile = buildProfile({ orgs: [acme, beta], ...flagOn });
    const { router } = open('/global/devices?o=2');
    await settle(router, '/dashboard?o=2');
    expect(listCalls()).toHaveLength(0);
  });

  it('uses the first zone when none is requested, and shows 404 to a user without any zone', async () => {
    state.profile = buildProfile({ orgs: [acme, beta] });
    const first = open('/global/devices');
    await settle(first.router, '/dashboard?o=1');
    first.unmount();

    queryClient.clear();
    localStorage.clear();
    state.profile = buildProfile({ orgs: [], rbac_roles: [], permissions: {} });
    open('/global/devices');
    expect(
      await screen.findByRole('heading', { name: '404 - Page Not Found' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
