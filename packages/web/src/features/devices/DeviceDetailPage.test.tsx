import type { DeviceCommand, DeviceDetail } from '@patchwell/core/devices/devices.schema';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { buildDevice, buildGroup, buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { buildActivityEvent } from '../reports/reports.factories';
import { DeviceDetailPage } from './DeviceDetailPage';

const T = CONSOLE_TEXTS.device;
// Each test renders the page and walks tabs, forms and dialogs; on a loaded CI machine
// that takes longer than vitest's default 5 s per test.

const command = (id: number, overrides: Partial<DeviceCommand>): DeviceCommand => ({
  id,
  type: 'scan',
  args: {},
  status: 'success',
  exit_code: 0,
  stdout_tail: null,
  stderr_tail: null,
  created_at: '2026-11-21T11:00:00Z',
  started_at: '2026-11-21T11:00:01Z',
  finished_at: '2026-11-21T11:00:05Z',
  created_by: 7,
  ...overrides,
});

const commands = [
  command(3, { type: 'install_all', status: 'timed_out', exit_code: null }),
  command(2, { type: 'reboot', status: 'error', exit_code: 1, stderr_tail: 'shutdown: permission denied' }),
  command(1, { stdout_tail: 'Reading package lists... Done' }),
];

const detail: DeviceDetail = {
  ...buildDevice({
    id: 42,
    name: 'build-01',
    display_name: 'Build server',
    custom_name: 'Build server',
    hostname: 'build-01',
    tags: ['ci', 'prod'],
    needs_reboot: true,
  }),
  detail: {
    hostname: 'build-01',
    fqdn: 'build-01.example.internal',
    cpu: 'AMD EPYC 7763',
    cpu_cores: 8,
    ram_bytes: 17_179_869_184,
    disks: [{ name: 'nvme0n1', size_bytes: 512_110_190_592, type: 'ssd' }],
    nics: [{ name: 'eth0', mac: '52:54:00:12:34:56', ips: ['10.0.0.10', 'fe80::1'] }],
    model: 'KVM',
    serial: 'SN-0042',
    vendor: 'QEMU',
    uptime_s: 93_780,
  },
  notes: 'Runs the nightly builds.',
  package_count: 812,
  last_inventory_at: '2026-11-21T11:00:00Z',
  next_maintenance_window: { starts_at: '2026-11-22T02:00:00.000Z', ends_at: '2026-11-22T04:00:00.000Z' },
  commands,
};

// The device's activity, as the activity log answers it for the device's id.
const deviceEvent = buildActivityEvent({
  action: 'agent.command_result',
  object: { type: 'device', id: '42', name: 'build-01' },
  summary: 'status: success',
});

const groups = [buildGroup({ id: 1, name: 'Default', default: true }), buildGroup({ id: 2, name: 'Servers' })];

let server: Awaited<ReturnType<typeof startTestServer>>;
const state = { detail };

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servers/42': () => ({ body: state.detail }),
    'GET /api/servers/42/packages': (req) => ({
      body:
        req.query.get('needs_update') === 'true'
          ? {
              data: [
                {
                  name: 'openssl',
                  version: '3.0.11',
                  source: 'apt',
                  patch: {
                    version: '3.0.13',
                    severity: 'critical',
                    cves: ['CVE-2024-0727'],
                    kb: null,
                    reboot_required: false,
                  },
                },
              ],
              size: 1,
            }
          : { data: [{ name: 'bash', version: '5.2.15', source: 'apt', patch: null }], size: 812 },
    }),
    'GET /api/servers/42/commands': () => ({ body: { data: state.detail.commands, size: 3 } }),
    'POST /api/servers/42/queues': () => ({
      status: 201,
      body: command(4, { status: 'pending', exit_code: null, finished_at: null, started_at: null }),
    }),
    'PUT /api/servers/42': (req) => {
      const body = JSON.parse(req.body) as Partial<Record<string, unknown>>;
      const group = groups.find((g) => g.id === body.server_group_id);
      state.detail = {
        ...state.detail,
        ...(body.custom_name !== undefined
          ? { custom_name: body.custom_name as string | null, display_name: (body.custom_name as string) || 'build-01' }
          : {}),
        ...(group ? { server_group_id: group.id, group_name: group.name } : {}),
        ...(body.tags ? { tags: body.tags as string[] } : {}),
        ...(typeof body.notes === 'string' ? { notes: body.notes } : {}),
      };
      return { body: state.detail };
    },
    'GET /api/servergroups': () => ({ body: groups }),
    'GET /api/events': () => ({ body: { data: [deviceEvent], size: 1, size_capped: false } }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.detail = detail;
});

const renderPage = (entry = '/devices/42?o=1', profile = buildProfile()) =>
  renderInShell(
    [
      { path: '/devices/:deviceId', element: <DeviceDetailPage /> },
      { path: '/devices', element: <p>Device list</p> },
    ],
    entry,
    { profile },
  );

const heading = () => screen.findByRole('heading', { level: 1, name: 'Build server' }, { timeout: 10_000 });
const openTab = (name: string) => userEvent.click(screen.getByRole('tab', { name }));

describe('device details', () => {
  it('render the overview from the payload', async () => {
    renderPage();
    await heading();
    const overview = screen.getByRole('table', { name: T.overview });
    expect(within(overview).getByText('Debian GNU/Linux 12')).toBeInTheDocument();
    expect(within(overview).getByText('10.0.0.10')).toBeInTheDocument();
    expect(within(overview).getByText('prod')).toBeInTheDocument();
    expect(within(overview).getByText(CONSOLE_TEXTS.devices.needsReboot)).toBeInTheDocument();
    expect(within(overview).getByText('1d 2h 3m')).toBeInTheDocument();
    // The window the device's group opens next (it starts policy runs only inside one).
    expect(within(overview).getByRole('row', { name: /^Next maintenance window/ })).toHaveTextContent(
      `${formatUtc('2026-11-22T02:00:00.000Z')} – ${formatUtc('2026-11-22T04:00:00.000Z')}`,
    );
    // Why the device has its compliance state, beside the badge.
    expect(within(overview).getByRole('row', { name: new RegExp(`^${T.complianceReason}`) })).toHaveTextContent(
      '3 patches pending (none Critical or High), and no policy has run on this device.',
    );
    expect(screen.getByRole('textbox', { name: T.notes })).toHaveValue('Runs the nightly builds.');
  });

  it('render hardware and network tabs', async () => {
    renderPage();
    await heading();
    await openTab(T.hardware);
    expect(await screen.findByText('AMD EPYC 7763')).toBeInTheDocument();
    expect(screen.getByText('16.0 GB')).toBeInTheDocument();
    expect(screen.getByText('SN-0042')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: T.disks })).getByText('476.9 GB')).toBeInTheDocument();
    await openTab(T.network);
    expect(await screen.findByText('52:54:00:12:34:56')).toBeInTheDocument();
    expect(screen.getByText('10.0.0.10, fe80::1')).toBeInTheDocument();
  });

  it('render software and pending patches with severity and CVEs', async () => {
    renderPage();
    await heading();
    await openTab(T.software);
    expect(await screen.findByRole('cell', { name: 'bash' })).toBeInTheDocument();
    await openTab(T.patches);
    const patches = await screen.findByRole('table', { name: T.patches });
    expect(within(patches).getByText('openssl')).toBeInTheDocument();
    expect(within(patches).getByText('Critical')).toBeInTheDocument();
    expect(within(patches).getByText('CVE-2024-0727')).toBeInTheDocument();
    expect(
      server.requests.find((r) => r.path === '/api/servers/42/packages' && r.query.has('needs_update')),
    ).toBeDefined();
  });

  it('render the command history with result badges, exit codes and output', async () => {
    renderPage('/devices/42?o=1&tab=commands');
    const table = await screen.findByRole('table', { name: T.commands }, { timeout: 10_000 });
    expect(within(table).getByText('Timed out')).toBeInTheDocument();
    expect(within(table).getByText('Error')).toBeInTheDocument();
    expect(within(table).getByText('Success')).toBeInTheDocument();
    expect(within(table).getByText('Patch all')).toBeInTheDocument();
    expect(within(table).getByText('shutdown: permission denied')).toBeInTheDocument();
    expect(within(table).getByText('Reading package lists... Done')).toBeInTheDocument();
    expect(screen.queryByText(T.live)).not.toBeInTheDocument();
  });

  it('queue a scan and show the live status while it is pending', async () => {
    renderPage('/devices/42?o=1&tab=commands');
    await heading();
    state.detail = {
      ...detail,
      commands: [command(4, { status: 'pending', exit_code: null, finished_at: null }), ...commands],
    };
    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.devices.scan }));
    expect(await screen.findByText(T.queued('Scan'))).toBeInTheDocument();
    const queued = server.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(queued.body)).toEqual({ command_type_name: 'GetOS' });
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'GET' && r.path === '/api/servers/42').length).toBe(2),
    );
  });

  it('ask before Patch all, naming how many patches it installs, and queue it only on confirm', async () => {
    state.detail = { ...detail, pending_patches: 7, needs_reboot: false };
    renderPage();
    await heading();
    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.devices.patchAll }));
    const dialog = await screen.findByRole('dialog', { name: T.patchAllTitle });
    expect(dialog).toHaveTextContent('Install 7 pending patches on Build server now?');
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: CONSOLE_TEXTS.common.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.devices.patchAll }));
    const again = await screen.findByRole('dialog', { name: T.patchAllTitle });
    await userEvent.click(within(again).getByRole('button', { name: CONSOLE_TEXTS.devices.patchAll }));
    expect(await screen.findByText(T.queued('Patch all'))).toBeInTheDocument();
    const queued = server.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(queued.body)).toEqual({ command_type_name: 'InstallAllUpdates' });
  });

  it('list the device’s activity from the activity log, with a link to the whole log filtered to it', async () => {
    renderPage('/devices/42?o=1&tab=activity');
    const table = await screen.findByRole('table', { name: T.activity }, { timeout: 10_000 });
    expect(within(table).getByText('agent.command_result')).toBeInTheDocument();
    expect(within(table).getByText('status: success')).toBeInTheDocument();
    const query = Object.fromEntries(server.requests.find((r) => r.path === '/api/events')!.query);
    expect(query).toMatchObject({ o: '1', preset: 'last30days', object_type: 'device', object_id: '42' });
    expect(screen.getByRole('link', { name: 'Open in the activity log' })).toHaveAttribute(
      'href',
      '/reports/activity-log?o=1&preset=last30days&object_type=device&object_id=42',
    );
  });

  it('hide actions and notes editing from a read-only role', async () => {
    renderPage('/devices/42?o=1', buildProfile({ permissions: { '1': ['Endpoint.read'] } }));
    await heading();
    expect(screen.queryByRole('button', { name: CONSOLE_TEXTS.devices.scan })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: CONSOLE_TEXTS.devices.remove })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: T.notes })).not.toBeInTheDocument();
    expect(screen.getByText('Runs the nightly builds.')).toBeInTheDocument();
    // The activity log is a report: without Report.read there is no activity tab.
    expect(screen.queryByRole('tab', { name: T.activity })).not.toBeInTheDocument();
  });
});

describe('editing a device', () => {
  const puts = () => server.requests.filter((r) => r.method === 'PUT');

  it('saves only the changed fields and shows the new name', async () => {
    renderPage();
    await heading();
    const save = screen.getByRole('button', { name: CONSOLE_TEXTS.common.save });
    expect(save).toBeDisabled();
    const name = screen.getByRole('textbox', { name: T.customName });
    await userEvent.clear(name);
    await userEvent.type(name, 'Nightly builder');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.group }), 'Servers');
    await userEvent.clear(screen.getByRole('textbox', { name: T.tags }));
    await userEvent.type(screen.getByRole('textbox', { name: T.tags }), 'ci, eu ,ci');
    await userEvent.click(save);

    expect(await screen.findByText(T.saved)).toBeInTheDocument();
    expect(puts()).toHaveLength(1);
    expect(puts()[0]!.query.get('o')).toBe('1');
    expect(JSON.parse(puts()[0]!.body)).toEqual({
      custom_name: 'Nightly builder',
      server_group_id: 2,
      tags: ['ci', 'eu'],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nightly builder' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: CONSOLE_TEXTS.common.save })).toBeDisabled();
  });

  it('checks the limits before sending, and Cancel puts the saved values back', async () => {
    renderPage();
    await heading();
    const name = screen.getByRole('textbox', { name: T.customName });
    fireEvent.change(name, { target: { value: 'x'.repeat(256) } });
    fireEvent.change(screen.getByRole('textbox', { name: T.tags }), { target: { value: `ci, ${'t'.repeat(101)}` } });
    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.common.save }));
    expect(await screen.findByText(T.tooLong(255))).toBeInTheDocument();
    expect(screen.getByText(T.tagTooLong(100))).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.common.cancel }));
    expect(name).toHaveValue('Build server');
    expect(screen.getByRole('textbox', { name: T.tags })).toHaveValue('ci, prod');
    expect(screen.queryByText(T.tooLong(255))).not.toBeInTheDocument();
  });

  it('asks before leaving with unsaved changes', async () => {
    const { router } = renderPage();
    await heading();
    await userEvent.type(screen.getByRole('textbox', { name: T.notes }), ' Weekly too.');
    await userEvent.click(screen.getByRole('link', { name: T.back }));
    const dialog = await screen.findByRole('dialog', { name: CONSOLE_TEXTS.unsaved.title });
    await userEvent.click(within(dialog).getByRole('button', { name: CONSOLE_TEXTS.unsaved.stay }));
    expect(router.state.location.pathname).toBe('/devices/42');
    expect(screen.getByRole('textbox', { name: T.notes })).toHaveValue('Runs the nightly builds. Weekly too.');

    await userEvent.click(screen.getByRole('link', { name: T.back }));
    const again = await screen.findByRole('dialog', { name: CONSOLE_TEXTS.unsaved.title });
    await userEvent.click(within(again).getByRole('button', { name: CONSOLE_TEXTS.unsaved.leave }));
    expect(await screen.findByText('Device list')).toBeInTheDocument();
  });
});

describe('installing a pending patch', () => {
  it('queues InstallUpdate for that update after a confirmation, then shows it live and in the history', async () => {
    renderPage('/devices/42?o=1&tab=patches');
    await heading();
    const install = await screen.findByRole('button', { name: T.installLabel('openssl') });
    await userEvent.click(install);
    const dialog = await screen.findByRole('dialog', { name: T.installTitle });
    expect(within(dialog).getByText(T.installBody('openssl', '3.0.13', 'Build server'))).toBeInTheDocument();
    state.detail = {
      ...detail,
      commands: [
        command(4, {
          type: 'install_updates',
          args: { names: ['openssl'] },
          status: 'pending',
          exit_code: null,
          started_at: null,
          finished_at: null,
        }),
        ...commands,
      ],
    };
    await userEvent.click(within(dialog).getByRole('button', { name: T.install }));

    expect(await screen.findByText(T.queued(T.installWhat('openssl')))).toBeInTheDocument();
    const queued = server.requests.find((r) => r.method === 'POST')!;
    expect(queued.query.get('o')).toBe('1');
    expect(JSON.parse(queued.body)).toEqual({ command_type_name: 'InstallUpdate', args: { names: ['openssl'] } });
    const live = await screen.findByRole('status');
    expect(within(live).getByText(T.live)).toBeInTheDocument();
    expect(within(live).getByText('Install updates: openssl')).toBeInTheDocument();
    expect(within(live).getByText('Pending')).toBeInTheDocument();

    await openTab(T.commands);
    const history = await screen.findByRole('table', { name: T.commands });
    expect(within(history).getByText('Install updates')).toBeInTheDocument();
  });

  it('is not offered to a read-only role', async () => {
    renderPage('/devices/42?o=1&tab=patches', buildProfile({ permissions: { '1': ['Endpoint.read'] } }));
    const patches = await screen.findByRole('table', { name: T.patches }, { timeout: 10_000 });
    expect(within(patches).getByText('openssl')).toBeInTheDocument();
    expect(within(patches).queryByRole('button', { name: T.installLabel('openssl') })).not.toBeInTheDocument();
  });
});
