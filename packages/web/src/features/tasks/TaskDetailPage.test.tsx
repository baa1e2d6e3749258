import type { Task, TaskJob } from '@patchwell/core/remediation/tasks.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { buildJob, buildTask } from './remediation.factories';
import { TaskDetailPage } from './TaskDetailPage';
import { POLL_MS } from './tasks.api';
import { TASK_TEXTS as T } from './tasks.texts';

const running = buildTask({
  id: 9,
  title: 'Install openssl 3.0.15',
  status: 'in_progress',
  overall_status: 'in_progress',
  counts: { devices: 3, remediated: 1, remediating: 1, remediation_failed: 1, not_run: 0 },
  executed_by_user: { id: 7, email: 'ada@example.com' },
  executed_at: '2026-11-20T11:00:00Z',
});
const jobsWhileRunning: TaskJob[] = [
  buildJob({
    id: 1,
    device_id: 11,
    hostname: 'web-1',
    status: 'success',
    remediation_status: 'remediated',
    exit_code: 0,
  }),
  buildJob({
    id: 2,
    device_id: 12,
    hostname: 'db-1',
    patch_names: ['openssl 3.0.13-0ubuntu3.4'],
    status: 'in_progress',
    remediation_status: 'remediating',
  }),
  buildJob({
    id: 3,
    device_id: 13,
    hostname: 'mail-1',
    status: 'error',
    remediation_status: 'remediation_failed',
    exit_code: 100,
    output: 'E: Unable to locate package openssl',
  }),
];
const state: { task: Task; jobs: TaskJob[] } = { task: running, jobs: jobsWhileRunning };

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/tasks/9': () => ({ body: state.task }),
    'GET /api/orgs/1/tasks/9/jobs': (req) => {
      const status = req.query.get('status');
      const data = status ? state.jobs.filter((j) => j.status === status) : state.jobs;
      return { body: { data, size: data.length } };
    },
    'GET /api/orgs/1/tasks/404': () => ({ status: 404, body: { message: 'Not found' } }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.task = running;
  state.jobs = jobsWhileRunning;
});

/** The running task finishes (db-1's job succeeds); waits until the page shows both. */
async function finishTaskAndSeeIt() {
  state.task = {
    ...running,
    status: 'executed',
    overall_status: 'partially_executed',
    counts: { devices: 3, remediated: 2, remediating: 0, remediation_failed: 1, not_run: 0 },
  };
  state.jobs = jobsWhileRunning.map((j) =>
    j.id === 2 ? { ...j, status: 'success', remediation_status: 'remediated' } : j,
  );
  await waitFor(() => expect(screen.getByText(T.overall.partially_executed!)).toBeInTheDocument(), {
    timeout: 3 * POLL_MS,
  });
  await waitFor(
    () => expect(within(screen.getByRole('row', { name: /db-1/ })).getByText(T.jobResult.success!)).toBeInTheDocument(),
    { timeout: 3 * POLL_MS },
  );
}

const open = (entry = '/manage/tasks/tasks/9?o=1', profile = buildProfile()) =>
  renderInShell([{ path: '/manage/tasks/tasks/:taskId', element: <TaskDetailPage /> }], entry, { profile });

describe('task details', () => {
  it('shows one job per device with the task result labels and the remediation status', async () => {
    open();
    const jobs = await screen.findByRole('table', { name: T.jobsLabel }, { timeout: 10_000 });
    const failed = within(jobs).getByRole('row', { name: /mail-1/ });
    expect(within(failed).getByText(T.jobResult.error!)).toBeInTheDocument();
    expect(within(failed).getByText(T.remediation.remediation_failed!)).toBeInTheDocument();
    expect(failed).toHaveTextContent('100');
    expect(within(jobs).getByRole('row', { name: /web-1/ })).toHaveTextContent(T.remediation.remediated!);
    expect(within(jobs).getByRole('row', { name: /db-1/ })).toHaveTextContent(T.jobResult.in_progress!);
    // Each device's own versions of the task's fix.
    expect(within(jobs).getByRole('columnheader', { name: T.jobUpdates })).toBeInTheDocument();
    expect(within(jobs).getByRole('row', { name: /db-1/ })).toHaveTextContent('openssl 3.0.13-0ubuntu3.4');
    expect(screen.getByRole('link', { name: 'web-1' })).toHaveAttribute('href', '/devices/11?o=1');

    await userEvent.click(within(failed).getByRole('button', { name: T.showOutput('mail-1') }));
    expect(await screen.findByText('E: Unable to locate package openssl')).toBeInTheDocument();
  });

  it('shows the overall status and counts, and its CSV link', async () => {
    open();
    const facts = await screen.findByRole('table', { name: T.details }, { timeout: 10_000 });
    expect(within(facts).getByText(T.overall.in_progress!)).toBeInTheDocument();
    expect(within(facts).getByText(T.counts(running.counts))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.downloadCsv })).toHaveAttribute('href', '/api/orgs/1/tasks/9/csv?o=1');
    expect(screen.getByText(T.polling)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.execute })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.cancel })).toBeInTheDocument();
  });

  it('refreshes task and jobs by itself while the task runs, and stops once it is done', async () => {
    open();
    await screen.findByRole('table', { name: T.jobsLabel }, { timeout: 10_000 });
    await finishTaskAndSeeIt();
    expect(screen.queryByText(T.polling)).not.toBeInTheDocument();
  });

  it('reads the jobs once more when the task is found done after their last read', async () => {
    state.jobs = jobsWhileRunning.map((j) =>
      j.id === 2 ? { ...j, status: 'pending', remediation_status: 'remediating' } : j,
    );
    open();
    await screen.findByRole('table', { name: T.jobsLabel }, { timeout: 10_000 });
    // Just after a read of the jobs, the waiting one finishes and so does the task: the task's
    // next read finds it done, with no job running that would keep the jobs refreshing.
    const jobReads = () => server.requests.filter((r) => r.path.endsWith('/jobs')).length;
    const before = jobReads();
    await waitFor(() => expect(jobReads()).toBeGreaterThan(before), { timeout: 3 * POLL_MS });
    await finishTaskAndSeeIt();
  });

  it('filters the jobs by result and goes back to the first page', async () => {
    open();
    await screen.findByRole('table', { name: T.jobsLabel }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.jobStatus }), 'error');
    await waitFor(() => expect(screen.queryByRole('row', { name: /web-1/ })).not.toBeInTheDocument());
    const last = server.requests.filter((r) => r.path === '/api/orgs/1/tasks/9/jobs').at(-1)!;
    expect(last.query.get('status')).toBe('error');
    expect(last.query.get('page')).toBe('0');
  });

  it('offers execute on a pending task, saying it runs once with no user notifications', async () => {
    state.task = {
      ...running,
      status: 'pending',
      overall_status: 'unknown',
      executed_by_user: null,
      executed_at: null,
    };
    state.jobs = [];
    open();
    expect(await screen.findByRole('button', { name: T.execute }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText(T.oneTime)).toBeInTheDocument();
  });

  it('says so when the task is not in this zone, with a way back', async () => {
    const profile = buildProfile({ features: { ...FEATURE_FLAGS, automated_vulnerability_remediation: false } });
    open('/manage/tasks/tasks/404?o=1', profile);
    expect(await screen.findByText(T.notFound, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.back })).toHaveAttribute('href', '/manage/tasks?o=1');
  });
});
