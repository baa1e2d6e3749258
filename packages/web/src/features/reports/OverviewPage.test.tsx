import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, utcDay } from '@patchwell/core/reports/date-range';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { OverviewPage } from './OverviewPage';
import { buildOverview, quietChartSizeWarnings } from './reports.factories';

const overview = buildOverview([
  { compliant: null, not_compliant: null, total: null },
  { compliant: 2, not_compliant: 3, total: 5, patches_installed: 4, failures: 1 },
  { compliant: 3, not_compliant: 2, total: 5, patches_installed: 1, failures: 0 },
]);

let server: Awaited<ReturnType<typeof startTestServer>>;
let restoreWarn: () => void;
const calls = (path: string) => server.requests.filter((r) => r.path === path);

beforeAll(async () => {
  restoreWarn = quietChartSizeWarnings();
  server = await startTestServer({
    'GET /api/reports/overview': () => ({ body: overview }),
    'GET /api/reports/patch-history': () => ({
      body: {
        data: [
          {
            command_id: 9,
            device_id: 4,
            device_name: 'web-4',
            os_family: 'linux',
            type: 'install_updates',
            patches: ['openssl', 'curl'],
            status: 'success',
            simulated: false,
            exit_code: 0,
            finished_at: '2026-11-16T03:00:00.000Z',
            policy_id: 7,
            policy_name: 'Nightly',
          },
        ],
        size: 1,
      },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  restoreWarn();
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

const renderPage = (entry = '/reports/overview?o=1') =>
  renderInShell(
    [
      { path: '/reports/overview', element: <OverviewPage /> },
      { path: '/devices', element: <p>device list</p> },
      { path: '/reports/needs-attention', element: <p>needs attention</p> },
    ],
    entry,
    { profile: buildProfile() },
  );

describe('the overview report', () => {
  it('asks for 10 days back by default (the server’s default) and shows the devices by state as links to their lists', async () => {
    renderPage();
    const states = await screen.findByRole('list', { name: 'Devices by state' }, { timeout: 10_000 });
    expect(calls('/api/reports/overview')[0]!.query.get('startDate')).toBeNull();
    expect(calls('/api/reports/overview')[0]!.query.get('internal')).toBe('1');
    expect(within(states).getByRole('link', { name: 'Online: 4' })).toHaveAttribute(
      'href',
      '/devices?o=1&status=online',
    );
    expect(within(states).getByRole('link', { name: 'Needs reboot: 1' })).toHaveAttribute(
      'href',
      '/devices?o=1&needs_reboot=true',
    );
    expect(within(states).getByRole('link', { name: 'Needs attention: 1' })).toHaveAttribute(
      'href',
      '/devices?o=1&compliance=needs_attention',
    );
    expect(within(states).getByRole('link', { name: 'With pending patches: 2' })).toHaveAttribute(
      'href',
      '/reports/prepatch?o=1',
    );
  });

  it('lists each day: today’s compliance links to its devices, a day without figures says so', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Compliance over time' }, { timeout: 10_000 });
    const rows = within(table).getAllByRole('row');
    // Newest first: header, today, yesterday, the day without a snapshot.
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('2026-11-17');
    expect(within(rows[1]!).getByRole('link', { name: 'Compliant 2026-11-17' })).toHaveAttribute(
      'href',
      '/devices?o=1&compliance=compliant',
    );
    expect(within(rows[1]!).getByRole('link', { name: 'Not compliant 2026-11-17' })).toHaveAttribute(
      'href',
      '/reports/needs-attention?o=1',
    );
    // A past day's compliance has no list any more: plain numbers.
    expect(within(rows[2]!).queryByRole('link', { name: 'Compliant 2026-11-16' })).toBeNull();
    expect(within(rows[2]!).getByText('2')).toBeInTheDocument();
    expect(within(rows[3]!).getAllByLabelText('No figures were recorded for this day.')).toHaveLength(3);
  });

  it('opens the install commands behind a day’s figure from its number', async () => {
    const { router } = renderPage();
    const link = await screen.findByRole('link', { name: 'Patches installed 2026-11-16' }, { timeout: 10_000 });
    await userEvent.click(link);
    expect(router.state.location.search).toBe('?o=1&day=2026-11-16&outcome=installed');
    const panel = await screen.findByRole('region', { name: 'Patches installed on 2026-11-16' });
    expect(await within(panel).findByRole('link', { name: 'web-4' })).toHaveAttribute('href', '/devices/4?o=1');
    expect(within(panel).getByText('openssl, curl')).toBeInTheDocument();
    const call = calls('/api/reports/patch-history').at(-1)!;
    expect(Object.fromEntries(call.query)).toMatchObject({
      o: '1',
      startDate: '2026-11-16',
      endDate: '2026-11-16',
      outcome: 'installed',
      page: '0',
    });
    await userEvent.click(within(panel).getByRole('link', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1'));
  });

  it('takes another start date within 90 days, and refuses one further back', async () => {
    const { router } = renderPage();
    const input = await screen.findByLabelText('From', {}, { timeout: 10_000 });
    const ok = utcDay(addDays(new Date(), -30));
    fireEvent.change(input, { target: { value: ok } });
    await waitFor(() => expect(calls('/api/reports/overview').at(-1)!.query.get('startDate')).toBe(ok));
    expect(router.state.location.search).toBe(`?o=1&startDate=${ok}`);
    fireEvent.change(input, { target: { value: utcDay(addDays(new Date(), -120)) } });
    expect(await screen.findByText('Must be within the last 90 days.')).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?o=1&startDate=${ok}`);
  });
});
