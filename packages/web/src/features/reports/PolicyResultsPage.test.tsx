import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { PolicyResultPage } from './PolicyResultPage';
import { PolicyResultsPage } from './PolicyResultsPage';
import { buildActivityEvent, buildPolicyResultsRow } from './reports.factories';

const nightly = buildPolicyResultsRow();
const never = buildPolicyResultsRow({
  policy_id: 8,
  policy_uuid: '22222222-2222-4222-8222-222222222222',
  name: 'Quarterly',
  runs: 0,
  last_run_at: null,
  devices: 0,
  success: 0,
  failed: 0,
  pending: 0,
});
// The policy's activity, as the activity log answers it for the policy's id.
const policyEvent = buildActivityEvent({
  action: 'policy.update',
  object: { type: 'policy', id: String(nightly.policy_id), name: nightly.name },
  summary: 'name: Old → Nightly',
});
const run = {
  id: 31,
  policy_id: 7,
  policy_uuid: nightly.policy_uuid,
  organization_id: 1,
  status: 'completed',
  trigger: 'manual',
  scheduled_for: null,
  created_by: 7,
  create_time: '2026-11-24T02:00:00.000Z',
  finished_at: '2026-11-24T02:10:00.000Z',
  device_count: 3,
  results: { success: 2, in_progress: 0, error: 1, pending: 0, timed_out: 0, canceled: 0 },
  timezone: null,
  queued_at: '2026-11-24T02:00:01.000Z',
  error_message: null,
};

let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = (path: string) => server.requests.filter((r) => r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/reports/policy-results': () => ({
      body: { since: '2026-10-26T12:00:00.000Z', data: [nightly], size: 1 },
    }),
    [`GET /api/reports/policy-results/${nightly.policy_uuid}`]: () => ({
      body: {
        since: '2026-10-26T12:00:00.000Z',
        policy: nightly,
      },
    }),
    [`GET /api/reports/policy-results/${never.policy_uuid}`]: () => ({
      body: { since: '2026-10-26T12:00:00.000Z', policy: never },
    }),
    'GET /api/policies/7/runs': () => ({ body: { data: [run], size: 1 } }),
    'GET /api/events': () => ({ body: { data: [policyEvent], size: 1, size_capped: false } }),
    'GET /api/policies/8/runs': () => ({ body: { data: [], size: 0 } }),
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

const renderAt = (entry: string) =>
  renderInShell(
    [
      { path: '/reports/policy-results', element: <PolicyResultsPage /> },
      { path: '/reports/policy-results/:policyUuid', element: <PolicyResultPage /> },
    ],
    entry,
    { profile: buildProfile() },
  );

describe('policy results', () => {
  it('lists the policies that ran in the last 30 days, each leading to its results', async () => {
    const { router } = renderAt('/reports/policy-results?o=1');
    const table = await screen.findByRole(
      'table',
      { name: 'Policies that ran in the last 30 days' },
      { timeout: 10_000 },
    );
    const row = within(table).getByRole('link', { name: 'Nightly' }).closest('tr')!;
    expect(within(row).getByText('Patch Policy')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Nightly: 2 runs' })).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('link', { name: 'Nightly' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/reports/policy-results/${nightly.policy_uuid}`));
    // The run results tab reads the policy's runs from the policies API.
    expect(await screen.findByRole('table', { name: 'Runs of the last 30 days' })).toBeInTheDocument();
    expect(calls('/api/policies/7/runs')).toHaveLength(1);
  });

  it('shows the policy’s figures, and its activity from the activity log in the second tab', async () => {
    const { router } = renderAt(`/reports/policy-results/${nightly.policy_uuid}?o=1`);
    expect(await screen.findByRole('heading', { name: 'Nightly' }, { timeout: 10_000 })).toBeInTheDocument();
    const facts = screen.getByRole('table', { name: 'Nightly' });
    expect(within(facts).getByRole('row', { name: /Failed/ })).toHaveTextContent('1');
    await userEvent.click(screen.getByRole('tab', { name: 'Activity log' }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1&tab=activity-log'));
    const events = await screen.findByRole('table', { name: 'Activity log' });
    expect(within(events).getAllByRole('row')).toHaveLength(2);
    expect(within(events).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(events).getByText('name: Old → Nightly')).toBeInTheDocument();
    const query = Object.fromEntries(server.requests.find((r) => r.path === '/api/events')!.query);
    expect(query).toMatchObject({ o: '1', preset: 'last30days', object_type: 'policy', object_id: '7' });
    expect(screen.getByRole('link', { name: 'Open in the activity log' })).toHaveAttribute(
      'href',
      '/reports/activity-log?o=1&preset=last30days&object_type=policy&object_id=7',
    );
  });

  it('says when a policy has not run in the period, and when it does not exist', async () => {
    renderAt(`/reports/policy-results/${never.policy_uuid}?o=1`);
    expect(
      await screen.findByText('This policy has not run in the last 30 days.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('says when the policy does not exist in the zone', async () => {
    renderAt('/reports/policy-results/33333333-3333-4333-8333-333333333333?o=1');
    expect(
      await screen.findByText('This policy does not exist in this zone, or it was deleted.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
