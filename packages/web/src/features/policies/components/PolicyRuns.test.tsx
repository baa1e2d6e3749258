import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { renderAt } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { POLL_MS, pollWhileOpen, runStates } from '../policies.api';
import { buildRun } from '../policies.factories';
import type { PolicyRunDetailLenient as PolicyRunDetail } from '@patchwell/core/policies/policy-responses.schema';
import { PolicyRuns } from './PolicyRuns';

// The agents report while the page is open: what the page shows follows without a reload
// (issue 10, defect 10), through the queries' own refetchInterval.
const fleet = { runReads: 0, resultReads: 0, done: false };

const result = (id: number, status: string) => ({
  id,
  run_id: 900,
  policy_id: 1,
  server_id: id,
  server_name: `host-${id}`,
  status,
  patches: [],
  exit_code: status === 'success' ? 0 : null,
  stdout_tail: null,
  stderr_tail: null,
  create_time: '2026-11-21T10:00:00Z',
  finished_at: status === 'success' ? '2026-11-21T10:01:00Z' : null,
  simulated: false,
  command_id: id,
  command_type: 'install_updates',
  message: null,
  queued_at: '2026-11-21T10:00:00Z',
});

const counts = (n: Partial<PolicyRunDetail['results']>): PolicyRunDetail['results'] => ({
  success: 0,
  in_progress: 0,
  error: 0,
  pending: 0,
  timed_out: 0,
  canceled: 0,
  ...n,
});

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/policies/1/runs': () => {
      fleet.runReads += 1;
      const run = fleet.done
        ? buildRun({ status: 'completed', device_count: 10, results: counts({ success: 10 }) })
        : buildRun({ status: 'queued', device_count: 10, results: counts({ success: 4, pending: 6 }) });
      return { body: { data: [run], size: 1 } };
    },
    'GET /api/policies/1/runs/900/results': () => {
      fleet.resultReads += 1;
      return { body: { data: [result(1, fleet.done ? 'success' : 'pending')], size: 1 } };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  Object.assign(fleet, { runReads: 0, resultReads: 0, done: false });
});

describe('policy runs', () => {
  it('refresh the run list and its results by themselves while anything is open', async () => {
    renderAt(<PolicyRuns zoneId={1} policyId={1} />);
    const runs = await screen.findByRole('table', { name: 'Runs of the last 30 days' });
    expect(await within(runs).findByText('4 success, 6 pending')).toBeInTheDocument();
    await userEvent.click(within(runs).getByRole('button', { name: 'View results' }));
    const results = await screen.findByRole('region', { name: /^Results of the run/ });
    expect(await within(results).findByText('Pending')).toBeInTheDocument();

    // The devices finish: nobody reloads, and both lists catch up.
    fleet.done = true;
    await waitFor(() => expect(within(runs).getByText('10 success')).toBeInTheDocument(), {
      timeout: 3 * POLL_MS,
    });
    await waitFor(() => expect(within(results).getByText('Success')).toBeInTheDocument(), {
      timeout: 3 * POLL_MS,
    });
    expect(within(runs).getByText('The execution completed.')).toBeInTheDocument();
  });

  it('poll while a run or a result is open and stop once every state is final', () => {
    expect(pollWhileOpen(runStates(buildRun({ status: 'queued' })))).toBe(POLL_MS);
    expect(
      pollWhileOpen(runStates(buildRun({ status: 'completed', results: counts({ success: 3, pending: 1 }) }))),
    ).toBe(POLL_MS);
    expect(
      pollWhileOpen(
        runStates(buildRun({ status: 'completed', results: counts({ success: 3, error: 1, pending: 0 }) })),
      ),
    ).toBe(false);
    expect(pollWhileOpen(['success', 'in_progress'])).toBe(POLL_MS);
    expect(pollWhileOpen(['success', 'error', 'timed_out', 'canceled', null, undefined])).toBe(false);
    expect(pollWhileOpen([])).toBe(false);
  });
});
