import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { PrepatchPage } from './PrepatchPage';
import { buildPrepatchDevice, buildPrepatchReport, quietChartSizeWarnings } from './reports.factories';

const web = buildPrepatchDevice({ id: 11, name: 'web-1' });
const db = buildPrepatchDevice({
  id: 12,
  name: 'db-1',
  critical: 0,
  high: 1,
  pending_patches: 1,
  oldest_age_days: null,
});

let server: Awaited<ReturnType<typeof startTestServer>>;
let restoreWarn: () => void;
const calls = () => server.requests.filter((r) => r.path === '/api/reports/prepatch');

beforeAll(async () => {
  restoreWarn = quietChartSizeWarnings();
  server = await startTestServer({
    'GET /api/reports/prepatch': (req) => ({
      body: buildPrepatchReport(req.query.get('severity') === 'critical' ? [web] : [web, db]),
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

const renderPage = (entry = '/reports/prepatch?o=1') =>
  renderInShell([{ path: '/reports/prepatch', element: <PrepatchPage /> }], entry, { profile: buildProfile() });

describe('the prepatch report', () => {
  it('shows pending patches by severity and by the spec’s age buckets, and the devices that have them', async () => {
    renderPage();
    const bySeverity = await screen.findByRole('table', { name: 'Pending patches by severity' }, { timeout: 10_000 });
    expect(within(bySeverity).getByRole('link', { name: 'High: 2 devices' })).toBeInTheDocument();
    const byAge = screen.getByRole('table', { name: 'Pending patches by age' });
    expect(
      within(byAge)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Under 15 days', '16-30 days', '31-60 days', '61-89 days', '90+ days']);
    const table = screen.getByRole('table', { name: 'Devices with pending patches' });
    expect(within(table).getByRole('link', { name: 'web-1' })).toHaveAttribute('href', '/devices/11?o=1');
    expect(within(table).getByText('55 days')).toBeInTheDocument();
  });

  it('leads each summary number to the devices behind it, on the first page', async () => {
    const { router } = renderPage('/reports/prepatch?o=1&page=3&age=90%2B');
    const link = await screen.findByRole('link', { name: 'Critical: 1 devices' }, { timeout: 10_000 });
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.search).toBe('?o=1&severity=critical'));
    await waitFor(() => expect(calls().at(-1)!.query.get('severity')).toBe('critical'));
    expect(calls().at(-1)!.query.get('age')).toBeNull();
    expect(calls().at(-1)!.query.get('page')).toBe('0');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'db-1' })).toBeNull());

    await userEvent.click(screen.getByRole('link', { name: '90+ days: 1 patches' }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1&age=90%2B'));
    await waitFor(() => expect(calls().at(-1)!.query.get('age')).toBe('90+'));
  });

  it('sorts by a column and exports the table with its filters and sort', async () => {
    const { router } = renderPage('/reports/prepatch?o=1&severity=high');
    await screen.findByRole('link', { name: 'web-1' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Oldest patch' }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1&severity=high&sort=oldest_age_days%3Aasc'));
    await waitFor(() => expect(calls().at(-1)!.query.get('sort')).toBe('oldest_age_days:asc'));
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/reports/prepatch/csv?o=1&sort=oldest_age_days%3Aasc&severity=high',
    );
  });
});
