import { TEXTS } from '@patchwell/core/texts';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { buildBatch, buildZoneCve } from '../tasks/remediation.factories';
import { TASK_TEXTS } from '../tasks/tasks.texts';
import { RemediationsPage } from './RemediationsPage';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

const state = { deadlines: { critical: 15, high: 30, medium: 90, low: null as number | null } };
let server: Awaited<ReturnType<typeof startTestServer>>;
const cveCalls = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/api/orgs/1/cves');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/cves/summary': () => ({
      body: {
        open_cves: 12,
        affected_devices: 30,
        overdue: { critical: 4, high: 2, medium: 0, low: 0, none: 0 },
        overdue_total: 6,
      },
    }),
    'GET /api/orgs/1/cves': () => ({
      body: {
        data: [
          buildZoneCve(),
          buildZoneCve({
            cve: 'CVE-2023-4863',
            severity: 'high',
            title: 'libwebp heap overflow',
            overdue_device_count: 0,
            due_at: null,
          }),
        ],
        size: 60,
      },
    }),
    'GET /api/orgs/1/tasks/batches': () => ({
      body: {
        data: [
          buildBatch({ id: 40, report_source: 'qualys-nov.csv', status: 'approved' }),
          buildBatch({ id: 41, report_source: 'tenable-nov.csv' }),
        ],
        size: 2,
      },
    }),
    'GET /api/orgs/1/remediation-deadlines': () => ({ body: state.deadlines }),
    'PUT /api/orgs/1/remediation-deadlines': (req) => {
      state.deadlines = JSON.parse(req.body) as typeof state.deadlines;
      return { body: state.deadlines };
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
  state.deadlines = { critical: 15, high: 30, medium: 90, low: null };
});

const open = (entry = '/manage/remediations?o=1', profile = buildProfile()) =>
  renderInShell([{ path: '/manage/remediations', element: <RemediationsPage /> }], entry, { profile });
const loaded = () => screen.findByRole('link', { name: 'CVE-2024-3094' }, { timeout: 10_000 });
const at = (router: ReturnType<typeof open>['router']) => router.state.location.search;

describe('remediations view', () => {
  it('shows the zone’s overdue counts by severity from the CVE summary', async () => {
    open();
    const summary = await screen.findByRole('list', { name: T.summaryLabel }, { timeout: 10_000 });
    const item = (label: string) => within(summary).getByText(label).closest('li')!;
    expect(item(T.openCves)).toHaveTextContent('12');
    expect(item(T.overdueDevices)).toHaveTextContent('6');
    expect(item(T.overdueBy('Critical'))).toHaveTextContent('4');
    expect(item(T.overdueBy('High'))).toHaveTextContent('2');
  });

  it('lists every imported batch, approved ones too, linking to its remediation page', async () => {
    open();
    const table = await screen.findByRole('table', { name: T.batchesLabel }, { timeout: 10_000 });
    expect(within(table).getByRole('link', { name: 'qualys-nov.csv' })).toHaveAttribute(
      'href',
      '/manage/remediations/40?o=1',
    );
    expect(within(table).getByText(TASK_TEXTS.batchStatus.approved!)).toBeInTheDocument();
    const call = server.requests.find((r) => r.path === '/api/orgs/1/tasks/batches')!;
    expect(call.query.has('status:not_in')).toBe(false);
  });

  it('lists the zone’s CVEs with due dates and overdue devices, each linking to its page', async () => {
    open();
    await loaded();
    const table = screen.getByRole('table', { name: T.cvesLabel });
    const xz = within(table).getByRole('row', { name: /CVE-2024-3094/ });
    expect(xz).toHaveTextContent('Critical');
    expect(xz).toHaveTextContent(`${T.overdue}: 1`);
    expect(within(table).getByRole('row', { name: /CVE-2023-4863/ })).toHaveTextContent(T.noDeadline);
    expect(within(table).getByRole('link', { name: 'CVE-2024-3094' })).toHaveAttribute(
      'href',
      '/manage/remediations/cves/CVE-2024-3094?o=1',
    );
  });

  it('filters by severity, overdue and search, each going back to the first page, and exports the same list', async () => {
    const { router } = open('/manage/remediations?o=1&page=2');
    await loaded();
    expect(cveCalls().at(-1)!.query.get('page')).toBe('1');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.severity }), 'critical');
    await waitFor(() => expect(cveCalls().at(-1)!.query.get('severity')).toBe('critical'));
    expect(cveCalls().at(-1)!.query.get('page')).toBe('0');

    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(cveCalls().at(-1)!.query.get('page')).toBe('1'));
    await userEvent.click(screen.getByRole('checkbox', { name: T.onlyOverdue }));
    await waitFor(() => expect(cveCalls().at(-1)!.query.get('overdue')).toBe('true'));
    expect(cveCalls().at(-1)!.query.get('page')).toBe('0');

    fireEvent.change(screen.getByRole('searchbox', { name: T.search }), { target: { value: 'xz' } });
    await waitFor(() => expect(cveCalls().at(-1)!.query.get('search')).toBe('xz'));
    expect(cveCalls().at(-1)!.query.get('page')).toBe('0');
    expect(at(router)).toBe('?o=1&severity=critical&overdue=true&search=xz');
    expect(screen.getByRole('link', { name: T.exportCsv })).toHaveAttribute(
      'href',
      '/api/orgs/1/cves/csv?o=1&search=xz&severity=critical&overdue=true',
    );

    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.table.clearFilters }));
    await waitFor(() => expect(at(router)).toBe('?o=1'));
  });

  it('sorts the CVEs by a column', async () => {
    open();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: T.due }));
    await waitFor(() => expect(cveCalls().at(-1)!.query.get('sort')).toBe('due_at:asc'));
  });

  it('saves the remediation deadlines, an empty field meaning no deadline, and checks their range', async () => {
    open();
    const form = await screen.findByRole('form', { name: T.deadlinesTitle }, { timeout: 10_000 });
    const critical = within(form).getByRole('textbox', { name: T.deadlineLabel('Critical') });
    expect(critical).toHaveValue('15');
    await userEvent.clear(critical);
    await userEvent.type(critical, '400');
    await userEvent.click(within(form).getByRole('button', { name: T.saveDeadlines }));
    expect(await within(form).findByText(TEXTS.validation.numberBetween(1, 365))).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);

    await userEvent.clear(critical);
    await userEvent.type(critical, '7');
    await userEvent.clear(within(form).getByRole('textbox', { name: T.deadlineLabel('Medium') }));
    await userEvent.click(within(form).getByRole('button', { name: T.saveDeadlines }));
    expect(await screen.findByText(T.deadlinesSaved)).toBeInTheDocument();
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(JSON.parse(put.body)).toEqual({ critical: 7, high: 30, medium: null, low: null });
  });

  it('shows the deadlines read-only to a user who cannot modify tasks, and no upload without Task.create', async () => {
    const grants = [...ROLE_GRANTS[2]];
    open('/manage/remediations?o=1', buildProfile({ permissions: { '1': grants } }));
    const form = await screen.findByRole('form', { name: T.deadlinesTitle }, { timeout: 10_000 });
    expect(within(form).queryByRole('button', { name: T.saveDeadlines })).not.toBeInTheDocument();
    expect(within(form).getByText(T.deadlinesReadOnly)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.upload })).not.toBeInTheDocument();
  });
});
