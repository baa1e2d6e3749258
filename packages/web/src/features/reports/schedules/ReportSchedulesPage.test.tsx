import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportSchedule, ReportScheduleSend } from '@patchwell/core/reports/schedules.schema';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { buildProfile } from '../../../test/factories';
import { renderInShell } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { ReportSchedulesPage } from './ReportSchedulesPage';
import { SCHEDULES_TEXTS } from './schedules.texts';

const T = SCHEDULES_TEXTS;

const schedule: ReportSchedule = {
  id: 3,
  name: 'Monday prepatch',
  kind: 'prepatch',
  frequency: 'weekly',
  day_of_week: 1,
  day_of_month: null,
  time: '08:00',
  timezone: 'Europe/Paris',
  recipients: ['ops@example.com'],
  enabled: true,
  created_by: 'ada@example.com',
  created_at: '2026-03-01T00:00:00Z',
  updated_at: '2026-03-01T00:00:00Z',
  next_due_at: '2026-03-09T07:00:00.000Z',
  last_sent_at: null,
  last_error: 'connect ECONNREFUSED 127.0.0.1:25',
};

const failedSend: ReportScheduleSend = {
  id: 11,
  schedule_id: 3,
  due_at: '2026-03-02T07:00:00.000Z',
  manual: false,
  status: 'failed',
  attempts: 3,
  row_count: 12,
  error: 'connect ECONNREFUSED 127.0.0.1:25',
  sent_at: null,
  created_at: '2026-03-02T07:00:01.000Z',
};

const state: { schedules: ReportSchedule[] } = { schedules: [] };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/reports/schedules': () => ({ body: { data: state.schedules, size: state.schedules.length } }),
    'GET /api/reports/schedules/3/sends': () => ({ body: { data: [failedSend], size: 1 } }),
    'POST /api/reports/schedules/3/send': () => ({
      body: { ...failedSend, id: 12, manual: true, status: 'sent', attempts: 1, error: null },
    }),
    'DELETE /api/reports/schedules/3': () => {
      state.schedules = [];
      return { status: 204 };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.schedules = [schedule];
});

const renderPage = (profile = buildProfile()) =>
  renderInShell([{ path: '/reports/schedules', element: <ReportSchedulesPage /> }], '/reports/schedules?o=1', {
    profile,
  });

describe('/reports/schedules', () => {
  it('lists schedules with when, next due and last error; shows the last sends', async () => {
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table', { name: T.tableLabel });
    const row = within(table).getByText('Monday prepatch').closest('tr')!;
    expect(within(row).getByText('Mondays at 08:00 Europe/Paris')).toBeInTheDocument();
    expect(within(row).getByText('connect ECONNREFUSED 127.0.0.1:25')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: T.history }));
    const sends = await screen.findByRole('table', { name: T.sendsLabel('Monday prepatch') });
    expect(within(sends).getByText(T.statuses.failed)).toBeInTheDocument();
    expect(within(sends).getByText('12')).toBeInTheDocument();
  });

  it('sends now, and deletes only after confirmation', async () => {
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table', { name: T.tableLabel });
    const row = within(table).getByText('Monday prepatch').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: T.sendNow }));
    await waitFor(() =>
      expect(
        server.requests.some((r) => r.method === 'POST' && r.path.startsWith('/api/reports/schedules/3/send')),
      ).toBe(true),
    );
    await user.click(within(row).getByRole('button', { name: T.delete }));
    expect(await screen.findByText(T.deleteMessage('Monday prepatch'))).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: T.delete }));
    expect(await screen.findByText(T.none)).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('offers no changes to a reader', async () => {
    const profile = buildProfile();
    profile.permissions = { '1': ['Report.read'] };
    renderPage(profile);
    const table = await screen.findByRole('table', { name: T.tableLabel });
    expect(within(table).getByRole('button', { name: T.history })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: T.sendNow })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.create })).not.toBeInTheDocument();
  });
});
