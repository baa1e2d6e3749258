import { screen, within } from '@testing-library/react';
import type { FleetDashboard } from '@patchwell/core/reports/dashboard.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildProfile } from '../../test/factories';
import { renderInShell, testQueryClient } from '../../test/render';
import { startTestServer } from '../../test/server';
import { buildPrepatchReport } from '../reports/reports.factories';
import { fleetDashboardQuery } from './dashboard.api';
import { dashboardLoader } from './dashboard.loader';
import { DashboardPage } from './DashboardPage';

const T = CONSOLE_TEXTS.dashboard;
let server: Awaited<ReturnType<typeof startTestServer>>;
let answer: { status: number; body: unknown };

function buildDashboard(overrides: Partial<FleetDashboard> = {}): FleetDashboard {
  return {
    computed_at: '2026-11-25T12:00:00.000Z',
    devices: {
      total: 40,
      online: 31,
      offline: 9,
      needs_reboot: 4,
      compliant: 25,
      pending: 10,
      needs_attention: 5,
      with_pending_patches: 15,
    },
    compliance: {
      percent: 62.5,
      trend: [
        { date: '2026-11-24', compliant: null, total: null, percent: null },
        { date: '2026-11-25', compliant: 25, total: 40, percent: 62.5 },
      ],
    },
    missing_critical: { days: 14, devices: 7 },
    pending: buildPrepatchReport([]).summary,
    vulnerable_software: [{ name: 'openssl', devices: 12, critical_devices: 7 }],
    recent_failures: [
      {
        command_id: 3,
        device_id: 21,
        device_name: 'web-01',
        os_family: 'linux',
        type: 'install_updates',
        patches: ['openssl'],
        status: 'error',
        simulated: false,
        exit_code: 100,
        finished_at: '2026-11-25T10:00:00.000Z',
        policy_id: null,
        policy_name: null,
      },
    ],
    activity: [{ date: '2026-11-25', installed: 3, failed: 1 }],
    ...overrides,
  };
}

beforeAll(async () => {
  server = await startTestServer({ 'GET /api/reports/dashboard': () => answer });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const routes = [
  { path: '/dashboard', element: <DashboardPage /> },
  { path: '/onboarding', element: <p>onboarding page</p> },
];

describe('dashboard', () => {
  it('shows every figure as a link to the list behind it, and when it was computed', async () => {
    answer = { status: 200, body: buildDashboard() };
    renderInShell(routes, '/dashboard?o=1', { profile: buildProfile() });
    const critical = await screen.findByRole('link', { name: /missing critical patches for more than 14 days: 7/ });
    expect(critical).toHaveAttribute('href', '/devices?o=1&critical_older_than=14');
    expect(screen.getByRole('link', { name: /Compliant devices: 62.5%/ })).toHaveAttribute(
      'href',
      '/devices?o=1&compliance=compliant',
    );
    expect(screen.getByText(/Figures computed 2026-11-25/)).toBeInTheDocument();
    const severity = screen.getByRole('region', { name: T.bySeverity });
    expect(within(severity).getByRole('link', { name: 'Critical' })).toHaveAttribute(
      'href',
      '/reports/prepatch?o=1&severity=critical',
    );
    const age = screen.getByRole('region', { name: T.byAge });
    expect(within(age).getByRole('link', { name: '90+ days' })).toHaveAttribute(
      'href',
      '/reports/prepatch?o=1&age=90%2B',
    );
    const software = screen.getByRole('region', { name: T.vulnerableSoftware });
    expect(within(software).getByRole('link', { name: 'openssl' })).toHaveAttribute(
      'href',
      '/software?o=1&search=openssl',
    );
    const failures = screen.getByRole('region', { name: T.recentFailures });
    expect(within(failures).getByRole('link', { name: 'web-01' })).toHaveAttribute('href', '/devices/21?o=1');
  });

  it('draws both charts in their cards', async () => {
    answer = { status: 200, body: buildDashboard() };
    renderInShell(routes, '/dashboard?o=1', { profile: buildProfile() });
    const trend = await screen.findByRole('region', { name: T.complianceTrend });
    expect(within(trend).getByRole('img', { name: T.complianceTrend })).toBeInTheDocument();
    const activity = screen.getByRole('region', { name: T.activity });
    expect(within(activity).getByRole('img', { name: T.activity })).toBeInTheDocument();
  });

  it('says so truthfully when the zone has no devices, with the way to add some', async () => {
    const empty = buildDashboard({
      devices: { ...buildDashboard().devices, total: 0, online: 0, offline: 0, compliant: 0 },
    });
    answer = { status: 200, body: empty };
    renderInShell(routes, '/dashboard?o=1', { profile: buildProfile() });
    expect(await screen.findByText(T.noDevices)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.addDevices })).toHaveAttribute('href', '/devices?o=1');
    expect(screen.getByRole('link', { name: T.onboarding })).toHaveAttribute('href', '/onboarding?o=1');
  });

  it('shows an error when the figures cannot be loaded', async () => {
    answer = { status: 500, body: { code: 'internal', message: 'boom' } };
    renderInShell(routes, '/dashboard?o=1', { profile: buildProfile() });
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});

describe('the redirect to /onboarding (spec A section 4)', () => {
  const notDone = (flag: boolean) =>
    buildProfile({ account_completed_qsg: false, features: { ...FEATURE_FLAGS, onboarding_zero_state: flag } });

  it('sends an account that has not completed the quick start guide to /onboarding', async () => {
    answer = { status: 200, body: buildDashboard() };
    renderInShell(routes, '/dashboard?o=1', { profile: notDone(false) });
    expect(await screen.findByText('onboarding page')).toBeInTheDocument();
  });

  it('still redirects with onboarding=0 while the onboarding flag is off', async () => {
    renderInShell(routes, '/dashboard?o=1&onboarding=0', { profile: notDone(false) });
    expect(await screen.findByText('onboarding page')).toBeInTheDocument();
  });

  it('stays on the dashboard with onboarding=0 and the flag on', async () => {
    answer = { status: 200, body: buildDashboard() };
    renderInShell(routes, '/dashboard?o=1&onboarding=0', { profile: notDone(true) });
    expect(await screen.findByRole('heading', { name: T.title })).toBeInTheDocument();
    expect(screen.queryByText('onboarding page')).not.toBeInTheDocument();
  });

  it('stays on the dashboard once the guide is completed', async () => {
    answer = { status: 200, body: buildDashboard() };
    renderInShell(routes, '/dashboard?o=1', { profile: buildProfile({ account_completed_qsg: true }) });
    expect(await screen.findByRole('heading', { name: T.title })).toBeInTheDocument();
  });
});

describe('the dashboard route’s loader', () => {
  it('puts the zone’s fleet at a glance in the cache before the page renders, and nothing without a zone', async () => {
    // A server of its own; the pages above may still be asking the client's address (zone 1).
    const own = await startTestServer({ 'GET /api/reports/dashboard': () => ({ body: buildDashboard() }) });
    api.configure({ baseUrl: own.url });
    try {
      const client = testQueryClient();
      const load = (url: string) =>
        dashboardLoader(client)({ request: new Request(url), params: {}, context: undefined } as never);
      await load('http://127.0.0.1/console/dashboard');
      expect(own.requests.filter((r) => !r.query.has('o'))).toEqual([]);
      await load('http://127.0.0.1/console/dashboard?o=3');
      expect(client.getQueryData(fleetDashboardQuery(3).queryKey)).toEqual(buildDashboard());
      expect(own.requests.filter((r) => r.query.get('o') === '3')).toHaveLength(1);
    } finally {
      api.configure({ baseUrl: server.url });
      await own.close();
    }
  });
});
