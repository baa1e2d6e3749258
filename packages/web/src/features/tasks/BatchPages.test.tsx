import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { BatchDetailPage } from './BatchDetailPage';
import { BatchesPage } from './BatchesPage';
import { BatchDetailsTab } from './batch/BatchDetailsTab';
import { BatchIssuesTab } from './batch/BatchIssuesTab';
import { buildBatch, buildIssue, buildTask } from './remediation.factories';
import { POLL_MS } from './tasks.api';
import { TASK_TEXTS as T } from './tasks.texts';

const ready = buildBatch({ id: 40, report_source: 'qualys-nov.csv' });
const building = buildBatch({
  id: 41,
  report_source: 'tenable-nov.csv',
  source: 'tenable',
  status: 'building',
  statistics: null,
});
const state: { batch40: Batch; batch41: Batch } = { batch40: ready, batch41: building };

let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/tasks/batches': () => ({ body: { data: [state.batch40, state.batch41], size: 2 } }),
    'GET /api/orgs/1/tasks/batches/40': () => ({ body: state.batch40 }),
    'GET /api/orgs/1/tasks/batches/41': () => ({ body: state.batch41 }),
    'GET /api/orgs/1/tasks/batches/40/issues': () => ({
      body: {
        data: [
          buildIssue({ id: 1, hostname: 'ghost-01', ip_addrs_private: ['10.9.9.9'], issue: 'unknown_host', line: 3 }),
          buildIssue({
            id: 2,
            device: 12,
            hostname: 'db-1',
            patch_id: 'CVE-2023-4863',
            issue: 'cve_not_applicable',
            line: 4,
          }),
        ],
        size: 60,
      },
    }),
    'POST /api/orgs/1/tasks/batches/40/accept': () => {
      state.batch40 = { ...state.batch40, status: 'approved', updated_by_user: { id: 7, email: 'ada@example.com' } };
      return { body: { batch: state.batch40, task_ids: [70, 71] } };
    },
    'POST /api/orgs/1/tasks/batches/40/reject': () => {
      state.batch40 = { ...state.batch40, status: 'rejected' };
      return { body: state.batch40 };
    },
    'POST /api/orgs/1/tasks/execute': () => ({ body: { task_ids: [70, 71], device_count: 3 } }),
    'GET /api/orgs/1/tasks': () => ({
      body: {
        data: [buildTask({ id: 70, batch_id: 40 }), buildTask({ id: 71, batch_id: 40, title: 'Run the xz worklet' })],
        size: 2,
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
  server.requests.length = 0;
  state.batch40 = ready;
  state.batch41 = building;
});

const routes = [
  { path: '/manage/tasks/batches', element: <BatchesPage /> },
  {
    path: '/manage/tasks/batches/:batchId',
    element: <BatchDetailPage />,
    children: [
      { index: true, element: <BatchDetailsTab /> },
      { path: 'potential-issues', element: <BatchIssuesTab /> },
    ],
  },
];
const open = (entry: string) => renderInShell(routes, entry, { profile: buildProfile() });

describe('task batch list', () => {
  it('shows the spec’s columns, leaves approved batches out, and offers no CSV while a batch builds', async () => {
    open('/manage/tasks/batches?o=1');
    const table = await screen.findByRole('table', { name: T.batchesTableLabel }, { timeout: 10_000 });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 5)).toEqual([T.csvName, T.queuedBy, T.source, T.impactedDevices, T.status]);
    const list = calls('GET', '/api/orgs/1/tasks/batches').at(-1)!;
    expect(list.query.get('status:not_in')).toBe('approved');
    expect(list.query.get('type:equals')).toBe('patch');

    const readyRow = within(table).getByRole('row', { name: /qualys-nov\.csv/ });
    expect(readyRow).toHaveTextContent('ada@example.com');
    expect(readyRow).toHaveTextContent(T.batchStatus.ready!);
    expect(within(readyRow).getByRole('link', { name: `${T.downloadCsv}: qualys-nov.csv` })).toHaveAttribute(
      'href',
      '/api/orgs/1/tasks/batches/40/csv?o=1',
    );
    const buildingRow = within(table).getByRole('row', { name: /tenable-nov\.csv/ });
    expect(within(buildingRow).queryByRole('link', { name: /Download CSV/ })).not.toBeInTheDocument();
    expect(buildingRow).toHaveTextContent(T.csvWhileBuilding);
  });
});

describe('task batch details', () => {
  it('follows a building batch until it is ready, then offers its CSV and review', async () => {
    open('/manage/tasks/batches/41?o=1');
    expect(await screen.findByText(T.building, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: T.downloadCsv })).not.toBeInTheDocument();
    state.batch41 = { ...buildBatch({ id: 41, report_source: 'tenable-nov.csv' }) };
    expect(await screen.findByRole('link', { name: T.downloadCsv }, { timeout: 3 * POLL_MS })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.accept })).toBeInTheDocument();
    expect(screen.queryByText(T.building)).not.toBeInTheDocument();
  });

  it('lists potential issues with device, hostname, private IP, CVE and issue type; a filter returns to the first page', async () => {
    open('/manage/tasks/batches/40/potential-issues?o=1');
    const table = await screen.findByRole('table', { name: T.issuesLabel }, { timeout: 10_000 });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 5)).toEqual([T.device, T.hostname, T.privateIp, T.cve, T.issueType]);
    const ghost = within(table).getByRole('row', { name: /ghost-01/ });
    expect(ghost).toHaveTextContent('10.9.9.9');
    expect(ghost).toHaveTextContent(T.issueTypes.unknown_host!);
    expect(within(table).getByRole('link', { name: T.deviceId(12) })).toHaveAttribute('href', '/devices/12?o=1');

    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(calls('GET', '/api/orgs/1/tasks/batches/40/issues').at(-1)!.query.get('page')).toBe('1'),
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.issueType }), 'unknown_host');
    await waitFor(() =>
      expect(calls('GET', '/api/orgs/1/tasks/batches/40/issues').at(-1)!.query.get('issue')).toBe('unknown_host'),
    );
    expect(calls('GET', '/api/orgs/1/tasks/batches/40/issues').at(-1)!.query.get('page')).toBe('0');
  });

  it('accepts after confirmation that a one-time task runs now with no user notifications, then lists the tasks created', async () => {
    open('/manage/tasks/batches/40?o=1');
    await userEvent.click(await screen.findByRole('button', { name: T.accept }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: T.acceptTitle });
    expect(dialog).toHaveTextContent('A one-time task runs now with no user notifications');
    await userEvent.click(within(dialog).getByRole('button', { name: T.accept }));
    expect(await screen.findByText(T.accepted(2))).toBeInTheDocument();
    expect(calls('POST', '/api/orgs/1/tasks/batches/40/accept')).toHaveLength(1);
    const tasks = await screen.findByRole('table', { name: T.batchTasks });
    expect(within(tasks).getByRole('link', { name: 'Run the xz worklet' })).toHaveAttribute(
      'href',
      '/manage/tasks/tasks/71?o=1',
    );
    expect(calls('GET', '/api/orgs/1/tasks').at(-1)!.query.get('batch_id')).toBe('40');
    expect(screen.queryByRole('button', { name: T.accept })).not.toBeInTheDocument();
  });

  it('executes every pending task of an accepted batch in one request, after confirmation', async () => {
    state.batch40 = { ...ready, status: 'approved' };
    open('/manage/tasks/batches/40?o=1');
    await userEvent.click(await screen.findByRole('button', { name: T.executeAll(2) }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: T.executeAllTitle });
    expect(dialog).toHaveTextContent(T.executeAllBody(2));
    await userEvent.click(within(dialog).getByRole('button', { name: T.execute }));
    expect(await screen.findByText(T.executedAll(2))).toBeInTheDocument();
    const posted = calls('POST', '/api/orgs/1/tasks/execute');
    expect(posted).toHaveLength(1);
    expect(JSON.parse(posted[0]!.body)).toEqual({ batch_id: 40 });
    expect(calls('GET', '/api/orgs/1/tasks').some((r) => r.query.get('status:equals') === 'pending')).toBe(true);
  });

  it('rejects after warning that a rejected batch needs a re-import', async () => {
    open('/manage/tasks/batches/40?o=1');
    await userEvent.click(await screen.findByRole('button', { name: T.reject }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: T.rejectTitle });
    expect(dialog).toHaveTextContent(T.rejectBody);
    await userEvent.click(within(dialog).getByRole('button', { name: T.reject }));
    expect(await screen.findByText(T.rejected)).toBeInTheDocument();
    expect(calls('POST', '/api/orgs/1/tasks/batches/40/reject')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: T.accept })).not.toBeInTheDocument());
  });
});
