import type { Profile } from '@patchwell/core/auth/profile.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { TEXTS } from '@patchwell/core/texts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { queryClient } from '../../app/query-client';
import { routerOptions, routes } from '../../app/routes';
import { buildDevice, buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer, type TestReply } from '../../test/server';

const NOT_FOUND = '404 - Page Not Found';
const device = { ...buildDevice({ id: 5, name: 'web-5', display_name: 'web-5', hostname: 'web-5' }) };
const detail = {
  ...device,
  detail: null,
  notes: '',
  package_count: 0,
  last_inventory_at: null,
  commands: [],
  next_maintenance_window: null,
};

const state: { profile: Profile; create: TestReply; shell: boolean } = {
  profile: buildProfile(),
  create: { status: 500 },
  shell: false,
};

const withRemote = (plan = 'tier3', flag = true) =>
  buildProfile({
    orgs: [buildZone({ id: 1, name: 'Acme', plan })],
    features: { ...FEATURE_FLAGS, remote_control: flag },
  });

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/is-authenticated': () => ({ body: true }),
    'GET /api/users/self': () => ({ body: state.profile }),
    'GET /api/servers/5': () => ({ body: detail }),
    'GET /api/remote-settings': () => ({
      body: { shell_enabled: state.shell, unattended: false, unattended_group_ids: [], idle_timeout_minutes: 15 },
    }),
    'POST /api/servers/5/remote-sessions': () => state.create,
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  queryClient.clear();
  state.shell = false;
  state.create = { status: 500 };
});

const open = () => renderRoutes(routes, '/devices/5/remote-control?o=1', queryClient, routerOptions);
const heading = () => screen.findByRole('heading', { name: 'Remote control: web-5' }, { timeout: 15_000 });

describe('/devices/{id}/remote-control', () => {
  it('is the 404 page without the remote-control flag', async () => {
    state.profile = withRemote('tier3', false);
    open();
    expect(await screen.findByRole('heading', { name: NOT_FOUND }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('is the 404 page below the Complete plan', async () => {
    state.profile = withRemote('manage');
    open();
    expect(await screen.findByRole('heading', { name: NOT_FOUND }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('shows the device in the plain layout, without the shell’s navigation or banners, ready to connect', async () => {
    state.profile = withRemote();
    open();
    await heading();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Status: Not connected');
    expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled();
    // The shell is off in this zone: the screen is the only choice.
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.queryByText('Shell')).not.toBeInTheDocument();
  });

  it('offers the shell when the zone allows it', async () => {
    state.profile = withRemote();
    state.shell = true;
    open();
    await heading();
    expect(await screen.findByText('Shell')).toBeInTheDocument();
    expect(screen.getByText('Screen')).toBeInTheDocument();
  });

  it.each([
    [
      { status: 409, body: { code: 'remote.offline', message: TEXTS.remote.offline } },
      'unavailable',
      'Device is offline',
    ],
    [
      { status: 403, body: { code: 'authz.forbidden', message: TEXTS.remote.unauthorized } },
      'unauthorized',
      'Error - Unauthorized to start a Remote Control session.',
    ],
    [{ status: 500, body: { message: 'boom' } }, 'error', 'Error - Remote Control setup failed, try again later.'],
  ] as const)('shows a refused start as its status and the spec’s text (%#)', async (reply, status, text) => {
    state.profile = withRemote();
    state.create = reply;
    open();
    await heading();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByRole('status')).toHaveAttribute('data-status', status);
    // Connect again is possible.
    expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled();
  });

  describe('below 500 px', () => {
    const wide = window.matchMedia;
    beforeEach(() => {
      window.matchMedia = ((query: string) => ({ ...wide(query), matches: true })) as typeof window.matchMedia;
    });
    afterEach(() => {
      window.matchMedia = wide;
    });

    it('stacks its controls (the narrow layout)', async () => {
      state.profile = withRemote();
      state.shell = true;
      open();
      await heading();
      const controls = await screen.findByTestId('remote-controls');
      expect(controls.closest('[data-remote-layout]')).toHaveAttribute('data-remote-layout', 'narrow');
      expect(controls.className).toMatch(/Stack/);
      expect(within(controls).getByRole('button', { name: 'Connect' })).toHaveAttribute('data-block', 'true');
    });
  });
});
