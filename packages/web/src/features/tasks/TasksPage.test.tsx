import { TEXTS } from '@patchwell/core/texts';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { buildTask } from './remediation.factories';
import { TasksPage } from './TasksPage';
import { TASK_TEXTS as T } from './tasks.texts';

const openssl = buildTask({ id: 1, title: 'Install openssl 3.0.15' });
const worklet = buildTask({
  id: 2,
  title: 'Run the firewall worklet',
  kind: 'patch-with-worklet',
  patch_name: null,
  worklet_id: null,
  severity: 'critical',
  source: 'tenable',
});
const done = buildTask({
  id: 3,
  title: 'Install curl 8.5',
  status: 'executed',
  overall_status: 'partially_executed',
  counts: { devices: 2, remediated: 1, remediating: 0, remediation_failed: 1, not_run: 0 },
});

let server: Awaited<ReturnType<typeof startTestServer>>;
const listCalls = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/api/orgs/1/tasks');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/tasks': () => ({ body: { data: [openssl, worklet, done], size: 80 } }),
    'PATCH /api/orgs/1/tasks/1': () => ({ body: { ...openssl, status: 'in_progress' } }),
    'DELETE /api/orgs/1/tasks': () => ({ status: 204 }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

const renderPage = (entry = '/manage/tasks?o=1', profile = buildProfile()) =>
  renderInShell([{ path: '/manage/tasks', element: <TasksPage /> }], entry, { profile });

const loaded = () => screen.findByRole('link', { name: openssl.title }, { timeout: 10_000 });
const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const at = (router: ReturnType<typeof renderPage>['router']) => router.state.location.search;

async function openRowMenu(id: number) {
  await userEvent.click(screen.getByRole('button', { name: T.rowActions(id) }));
  return screen.findByRole('menu');
}

describe('tasks list', () => {
  it('lists each task with severity, source, status, progress and its CSV', async () => {
    renderPage();
    await loaded();
    const row = rowOf(openssl.title);
    expect(within(row).getByText('High')).toBeInTheDocument();
    expect(within(row).getByText('Qualys')).toBeInTheDocument();
    expect(within(row).getByText(T.taskStatus.pending!)).toBeInTheDocument();
    const partial = rowOf(done.title);
    expect(within(partial).getByText(T.overall.partially_executed!)).toBeInTheDocument();
    expect(within(partial).getByText(T.counts(done.counts))).toBeInTheDocument();
    const menu = await openRowMenu(1);
    expect(within(menu).getByRole('menuitem', { name: T.downloadCsv })).toHaveAttribute(
      'href',
      '/api/orgs/1/tasks/1/csv?o=1',
    );
  });

  it('sends filters as field:equals and goes back to the first page when one changes', async () => {
    const { router } = renderPage('/manage/tasks?o=1&page=3');
    await loaded();
    expect(listCalls().at(-1)!.query.get('page')).toBe('2');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.status }), 'executed');
    await waitFor(() => expect(listCalls().at(-1)!.query.get('status:equals')).toBe('executed'));
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');
    expect(at(router)).toBe('?o=1&status=executed');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.severity }), 'critical');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.source }), 'tenable');
    await waitFor(() => expect(listCalls().at(-1)!.query.get('source:equals')).toBe('tenable'));
    expect(listCalls().at(-1)!.query.get('severity:equals')).toBe('critical');
    expect(listCalls().at(-1)!.query.get('status:equals')).toBe('executed');
  });

  it('sorts by a column as field:asc, then desc, and returns to the first page', async () => {
    const { router } = renderPage('/manage/tasks?o=1&page=2');
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: T.status }));
    await waitFor(() => expect(listCalls().at(-1)!.query.get('sort')).toBe('status:asc'));
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');
    await userEvent.click(screen.getByRole('button', { name: T.status }));
    await waitFor(() => expect(at(router)).toBe('?o=1&sort=status%3Adesc'));
  });

  it('executes a pending task after a confirmation that says it runs once, now, without notifications', async () => {
    renderPage();
    await loaded();
    await userEvent.click(within(await openRowMenu(1)).getByRole('menuitem', { name: T.execute }));
    const dialog = await screen.findByRole('dialog', { name: T.executeTitle });
    expect(dialog).toHaveTextContent(T.executeBody(openssl.title, 2));
    await userEvent.click(within(dialog).getByRole('button', { name: T.execute }));
    expect(await screen.findByText(T.executed(1))).toBeInTheDocument();
    const patch = server.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe('/api/orgs/1/tasks/1');
    expect(JSON.parse(patch!.body)).toEqual({ action: 'execute' });
  });

  it('tells a user without execute rights why, and sends nothing', async () => {
    const grants = [...ROLE_GRANTS[1]].filter((p) => p !== 'Task.execute');
    renderPage('/manage/tasks?o=1', buildProfile({ permissions: { '1': grants } }));
    await loaded();
    await userEvent.click(within(await openRowMenu(1)).getByRole('menuitem', { name: T.execute }));
    expect(await screen.findByText(TEXTS.remediationTasks.executeForbidden)).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('refuses to execute a worklet task whose worklet has no id', async () => {
    renderPage();
    await loaded();
    await userEvent.click(within(await openRowMenu(2)).getByRole('menuitem', { name: T.execute }));
    expect(await screen.findByText(TEXTS.remediationTasks.workletInvalid)).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('deletes the selected tasks after warning that their details become inaccessible', async () => {
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('checkbox', { name: T.selectTask(1) }));
    await userEvent.click(screen.getByRole('checkbox', { name: T.selectTask(3) }));
    await userEvent.click(screen.getByRole('button', { name: T.deleteSelected(2) }));
    const dialog = await screen.findByRole('dialog', { name: T.deleteTitle(2) });
    expect(dialog).toHaveTextContent(/become inaccessible/);
    await userEvent.click(within(dialog).getByRole('button', { name: T.delete }));
    expect(await screen.findByText(T.deleted(2))).toBeInTheDocument();
    const del = server.requests.find((r) => r.method === 'DELETE');
    expect(JSON.parse(del!.body)).toEqual({ ids: [1, 3] });
  });

  it('offers no delete to a user who cannot modify tasks', async () => {
    const grants = [...ROLE_GRANTS[1]].filter((p) => p !== 'Task.modify');
    renderPage('/manage/tasks?o=1', buildProfile({ permissions: { '1': grants } }));
    await loaded();
    expect(screen.queryByRole('checkbox', { name: T.selectTask(1) })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: CONSOLE_TEXTS.table.selectAll })).not.toBeInTheDocument();
  });
});
