import {
  MAINTENANCE_WINDOW_TEXTS,
  type MaintenanceWindow,
} from '@patchwell/core/maintenance/maintenance-windows.schema';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildGroup, buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { MaintenanceWindowsPage } from './MaintenanceWindowsPage';
import { MAINTENANCE_TEXTS as T } from './maintenance.texts';

const acme = buildZone({ id: 1, name: 'Acme' });
const groups = [buildGroup({ id: 10, name: 'Default Group', default: true }), buildGroup({ id: 11, name: 'Servers' })];

let windows: MaintenanceWindow[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;

/** What the API answers for a body (the occurrence is the server's; here a fixed one). */
function stored(id: number, body: Record<string, unknown>): MaintenanceWindow {
  const group = groups.find((g) => g.id === body.server_group_id)!;
  return {
    id,
    name: body.name as string,
    server_group_id: group.id,
    server_group_name: group.name,
    timezone: body.timezone as string,
    schedule: body.schedule as MaintenanceWindow['schedule'],
    next: { starts_at: '2030-03-07T21:00:00.000Z', ends_at: '2030-03-08T01:00:00.000Z' },
    is_open: id === 1,
    created_at: '2026-03-02T10:00:00.000Z',
    updated_at: '2026-03-02T10:00:00.000Z',
  };
}

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servergroups': () => ({ body: groups }),
    'GET /api/maintenance-windows': () => ({ body: { data: windows, size: windows.length } }),
    'POST /api/maintenance-windows': (req) => {
      const w = stored(windows.length + 1, JSON.parse(req.body) as Record<string, unknown>);
      windows = [...windows, w];
      return { status: 201, body: w };
    },
    'PUT /api/maintenance-windows/1': (req) => {
      const w = stored(1, JSON.parse(req.body) as Record<string, unknown>);
      windows = windows.map((x) => (x.id === 1 ? w : x));
      return { body: w };
    },
    'DELETE /api/maintenance-windows/1': () => {
      windows = windows.filter((x) => x.id !== 1);
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
  windows = [];
  server.requests.length = 0;
});

function renderPage() {
  return renderInShell(
    [{ path: '/manage/maintenance-windows', element: <MaintenanceWindowsPage /> }],
    '/manage/maintenance-windows?o=1',
    { profile: buildProfile({ orgs: [acme] }) },
  );
}

const sentBodies = (method: string) =>
  server.requests.filter((r) => r.method === method).map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('Maintenance windows page', () => {
  it('creates a weekly window for a group, checking the form with the shared schema first', async () => {
    renderPage();
    expect(await screen.findByText(MAINTENANCE_WINDOW_TEXTS.empty)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: T.create })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: T.create }));
    const dialog = await screen.findByRole('dialog', { name: T.create });

    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Friday nights');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: T.group }), 'Servers');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: T.timezone }), 'Europe/Berlin');
    // No day chosen, a duration past a week: the schema's texts, and nothing is sent.
    const duration = within(dialog).getByRole('textbox', { name: T.duration });
    await userEvent.clear(duration);
    await userEvent.type(duration, '20000');
    await userEvent.click(within(dialog).getByRole('button', { name: T.create }));
    expect(await within(dialog).findByText(MAINTENANCE_WINDOW_TEXTS.days)).toBeInTheDocument();
    expect(within(dialog).getByText(MAINTENANCE_WINDOW_TEXTS.duration)).toBeInTheDocument();
    expect(sentBodies('POST')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Friday' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Monday' }));
    await userEvent.clear(duration);
    await userEvent.type(duration, '240');
    await userEvent.click(within(dialog).getByRole('button', { name: T.create }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentBodies('POST')).toEqual([
      {
        name: 'Friday nights',
        server_group_id: 11,
        timezone: 'Europe/Berlin',
        schedule: { kind: 'weekly', days: [1, 5], start_time: '22:00', duration_minutes: 240 },
      },
    ]);
    const table = await screen.findByRole('table', { name: T.title });
    expect(await within(table).findByText('Friday nights')).toBeInTheDocument();
    expect(within(table).getByText('Servers')).toBeInTheDocument();
    expect(within(table).getByText('Mon, Fri at 22:00 for 4 h')).toBeInTheDocument();
  });

  it('refuses a one-off window that ends before it starts', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByRole('button', { name: T.create })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: T.create }));
    const dialog = await screen.findByRole('dialog', { name: T.create });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Freeze break');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: T.kind }), 'One-off');
    fireEvent.change(within(dialog).getByLabelText(T.startsAt), { target: { value: '2026-07-01T10:00' } });
    fireEvent.change(within(dialog).getByLabelText(T.endsAt), { target: { value: '2026-07-01T09:00' } });
    await userEvent.click(within(dialog).getByRole('button', { name: T.create }));
    expect(await within(dialog).findByText(MAINTENANCE_WINDOW_TEXTS.endAfterStart)).toBeInTheDocument();
    expect(sentBodies('POST')).toHaveLength(0);
  });

  it('edits a window and deletes it after confirming', async () => {
    windows = [
      stored(1, {
        name: 'Month end',
        server_group_id: 10,
        timezone: 'UTC',
        schedule: { kind: 'monthly', day_of_month: 31, start_time: '01:00', duration_minutes: 90 },
      }),
    ];
    renderPage();
    const table = await screen.findByRole('table', { name: T.title });
    expect(await within(table).findByText('Day 31 of each month at 01:00 for 1 h 30 min')).toBeInTheDocument();
    expect(within(table).getByText(T.openNow)).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Actions: Month end' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: T.edit }));
    const dialog = await screen.findByRole('dialog', { name: T.edit });
    const day = within(dialog).getByRole('textbox', { name: T.dayOfMonth });
    expect(day).toHaveValue('31');
    await userEvent.clear(day);
    await userEvent.type(day, '15');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentBodies('PUT')[0]).toMatchObject({ schedule: { kind: 'monthly', day_of_month: 15 } });
    expect(await within(table).findByText('Day 15 of each month at 01:00 for 1 h 30 min')).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Actions: Month end' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: T.delete }));
    const confirm = await screen.findByRole('dialog', { name: T.deleteTitle });
    expect(within(confirm).getByText(T.deleteBody('Month end'))).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: T.delete }));
    expect(await screen.findByText(MAINTENANCE_WINDOW_TEXTS.empty)).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'DELETE' && r.path === '/api/maintenance-windows/1')).toBe(true);
  });
});
