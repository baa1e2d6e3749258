import type { ActivityEvent } from '@patchwell/core/activity/activity.schema';
import { DATE_RANGE_ERRORS, utcDay } from '@patchwell/core/reports/date-range';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { ACTIVITY_LOG_TEXTS as T } from './activity-log.texts';
import { ActivityLogPage } from './ActivityLogPage';
import { buildActivityEvent } from './reports.factories';

const state = { events: [] as ActivityEvent[], size: 0 };
let server: Awaited<ReturnType<typeof startTestServer>>;
const listCalls = () => server.requests.filter((r) => r.path === '/api/events');
const lastQuery = () => Object.fromEntries(listCalls().at(-1)!.query);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/events': () => ({ body: { data: state.events, size: state.size, size_capped: state.size >= 10_000 } }),
    'GET /api/users': () => ({
      body: [
        {
          id: 7,
          uuid: 'u-7',
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: 'ada@example.com',
          status: 'active',
          locked: false,
          tfa_enabled: false,
          account_rbac_role: 'no-global-access',
          created_at: '2026-01-01T00:00:00Z',
          last_signin_at: null,
          role: { id: 1, name: 'Zone Administrator' },
        },
      ],
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.events = [
    buildActivityEvent(),
    buildActivityEvent({
      id: 2,
      created_at: '2026-03-02T08:00:00.000Z',
      actor: { type: 'device', user_id: null, api_key_id: null, device_id: 42, name: 'web-1' },
      via: 'agent',
      action: 'agent.reboot',
      summary: 'status: success',
      client_address: null,
    }),
  ];
  state.size = 2;
});

const renderPage = (entry = '/reports/activity-log?o=1') =>
  renderInShell([{ path: '/reports/activity-log', element: <ActivityLogPage /> }], entry, {
    profile: buildProfile(),
  });

const table = () => screen.findByRole('table', { name: T.tableLabel }, { timeout: 10_000 });

describe('activity log', () => {
  it('lists the last 30 days: time, who, action, object, summary and client address', async () => {
    renderPage();
    const rows = within(await table()).getAllByRole('row');
    expect(rows[0]).toHaveTextContent([T.time, T.who, T.action, T.object, T.summary, T.clientAddress].join(''));
    expect(rows[1]).toHaveTextContent('2026-03-02 8:15 AM UTC');
    expect(rows[1]).toHaveTextContent('ada@example.com');
    expect(rows[1]).toHaveTextContent('device.reboot');
    expect(rows[1]).toHaveTextContent('device web-1');
    expect(rows[1]).toHaveTextContent('notes: — → checked');
    expect(rows[1]).toHaveTextContent('203.0.113.9');
    expect(rows[2]).toHaveTextContent('web-1Agent');
    expect(lastQuery()).toEqual({ o: '1', preset: 'last30days', page: '0', limit: '25' });
  });

  it('filters by preset, user and type, back on the first page, and the CSV link carries the filters', async () => {
    const { router } = renderPage('/reports/activity-log?o=1&page=2');
    await table();
    expect(lastQuery().page).toBe('1');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.dateRange }), 'yesterday');
    await waitFor(() => expect(lastQuery()).toMatchObject({ preset: 'yesterday', page: '0' }));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: T.user }), '7');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.type }), 'device');
    await waitFor(() => expect(lastQuery()).toMatchObject({ preset: 'yesterday', user_id: '7', action: 'device' }));
    expect(router.state.location.search).toBe('?o=1&preset=yesterday&user_id=7&action=device');
    expect(screen.getByRole('link', { name: T.exportCsv })).toHaveAttribute(
      'href',
      '/api/events/csv?o=1&preset=yesterday&user_id=7&action=device',
    );
  });

  it('takes a custom range of days and refuses one in the future without asking the server', async () => {
    renderPage();
    await table();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.dateRange }), 'custom');
    const today = utcDay(new Date());
    await waitFor(() => expect(lastQuery()).toMatchObject({ preset: 'custom', endDate: today }));
    const calls = listCalls().length;
    const future = utcDay(new Date(Date.now() + 3 * 86_400_000));
    fireEvent.change(screen.getByLabelText(T.endDate), { target: { value: future } });
    expect(await screen.findByText(DATE_RANGE_ERRORS.future)).toBeInTheDocument();
    expect(screen.getByText(T.fixDates)).toBeInTheDocument();
    expect(listCalls()).toHaveLength(calls);
  });

  it('shows an object filter from the URL and clears it', async () => {
    const { router } = renderPage('/reports/activity-log?o=1&object_type=device&object_id=42');
    await table();
    expect(lastQuery()).toMatchObject({ object_type: 'device', object_id: '42' });
    expect(screen.getByText(T.objectFilter('device', '42'))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.clearObject }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1'));
    await waitFor(() => expect(lastQuery().object_type).toBeUndefined());
  });

  it('pages through the server’s pages', async () => {
    state.size = 60;
    renderPage();
    await table();
    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.table.pageN(2) }));
    await waitFor(() => expect(lastQuery().page).toBe('1'));
  });

  it('says when more events match than the pages count', async () => {
    state.size = 10_000;
    renderPage();
    expect(await screen.findByText(T.capped('10,000'), {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('says so when nothing matches', async () => {
    state.events = [];
    state.size = 0;
    renderPage();
    expect(await screen.findByText(T.empty, {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});
