import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { api } from '../../api/client';
import { buildGroup, buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer, type TestReply } from '../../test/server';
import { formatUtc } from '../../ui/format-date';
import { PoliciesPage } from './PoliciesPage';
import { buildPolicy, buildRun } from './policies.factories';
import { POLICY_TEXTS as T } from './policies.texts';

// Each test renders the page and walks menus and dialogs; on a loaded machine that takes
// longer than vitest's default 5 s.

const patching = buildPolicy({ id: 1, name: 'Weekly patching', server_groups: [1, 2] });
const worklet = buildPolicy({
  id: 2,
  name: 'Firewall on',
  policy_type_name: 'custom',
  status: 'inactive',
  needs_configuration: true,
  server_groups: [],
  schedule_days: 0,
  next_run_time: null,
  configuration: { os_family: 'linux', remediation_code: 'ufw enable' },
});
const state: { run: TestReply; job: TestReply } = { run: { body: buildRun() }, job: { body: {} } };

let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/policies': () => ({ body: { data: [patching, worklet], size: 2 } }),
    'GET /api/policystats': () => ({
      body: [
        {
          policy_id: 1,
          policy_name: 'Weekly patching',
          policy_type_name: 'patch',
          organization_id: 1,
          compliant: 7,
          noncompliant: 2,
          pending: 4,
        },
      ],
    }),
    'GET /api/servergroups': () => ({
      body: [buildGroup({ id: 1, name: 'Servers' }), buildGroup({ id: 2, name: 'Laptops' })],
    }),
    'POST /api/policies/1/action': () => ({ status: 202, body: { run: buildRun({ id: 900, policy_id: 1 }) } }),
    'GET /api/policies/1/runs/900': () => state.run,
    'POST /api/policies/1/clone': () => ({
      status: 202,
      body: {
        id: '5b0b8d6e-2f4c-4a55-9f65-6f1d2b8a0c11',
        status: 'running',
        progress: 40,
        policy_name: 'Copy of patching',
        policy_type_name: 'patch',
        data: [],
        error: null,
      },
    }),
    'GET /api/policies/clone-jobs/5b0b8d6e-2f4c-4a55-9f65-6f1d2b8a0c11': () => state.job,
    'DELETE /api/policies/2': () => ({ status: 204 }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.run = { body: buildRun({ id: 900, policy_id: 1, status: 'queued' }) };
});

const withClone = () => buildProfile({ features: { ...FEATURE_FLAGS, clone_policy: true } });
const renderPage = (entry = '/manage/policies?o=1', profile = buildProfile()) =>
  renderInShell(
    [
      { path: '/manage/policies', element: <PoliciesPage /> },
      { path: '/manage/policies/:policyId', element: <p>Policy page</p> },
    ],
    entry,
    { profile },
  );
const loaded = () => screen.findByRole('link', { name: 'Weekly patching' }, { timeout: 4000 });
const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

async function openRowAction(policy: string, action: string) {
  await userEvent.click(screen.getByRole('button', { name: T.rowActions(policy) }));
  await userEvent.click(await screen.findByRole('menuitem', { name: action }));
}

describe('policy list', () => {
  it('shows status, type, targets, next run and the compliance counts of policystats', async () => {
    renderPage();
    await loaded();
    const row = within(rowOf('Weekly patching'));
    expect(row.getByText(T.active)).toBeInTheDocument();
    expect(row.getByText('Patch Policy')).toBeInTheDocument();
    expect(await row.findByText('Servers, Laptops')).toBeInTheDocument();
    expect(row.getByText(formatUtc('2026-11-22T02:00:00Z'))).toBeInTheDocument();
    await waitFor(() => expect(row.getByText(T.complianceCounts(7, 2, 4))).toBeInTheDocument());

    const other = within(rowOf('Firewall on'));
    expect(other.getByText(T.inactive)).toBeInTheDocument();
    expect(other.getByText(T.needsConfiguration)).toBeInTheDocument();
    expect(other.getByText('Worklet Policy')).toBeInTheDocument();
    expect(other.getByText(T.noGroups)).toBeInTheDocument();
    expect(other.getByText(T.unscheduled)).toBeInTheDocument();
    // No stats row for it: the list's own counts.
    expect(other.getByText(T.complianceCounts(1, 1, 1))).toBeInTheDocument();
  });

  it('sends filters, sort and the zero-based page, and resets the page on a filter change', async () => {
    const { router } = renderPage('/manage/policies?o=1&page=2');
    await loaded();
    expect(calls('GET', '/api/policies').at(-1)!.query.get('page')).toBe('1');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.type }), 'custom');
    await waitFor(() => expect(calls('GET', '/api/policies').at(-1)!.query.get('type')).toBe('custom'));
    expect(calls('GET', '/api/policies').at(-1)!.query.get('page')).toBe('0');
    await userEvent.click(screen.getByRole('button', { name: T.nextRun }));
    await waitFor(() => expect(calls('GET', '/api/policies').at(-1)!.query.get('sort')).toBe('next_run_time:asc'));
    await userEvent.type(screen.getByRole('searchbox', { name: T.search }), 'week');
    await waitFor(() => expect(calls('GET', '/api/policies').at(-1)!.query.get('search')).toBe('week'));
    expect(router.state.location.search).toBe('?o=1&type=custom&sort=next_run_time%3Aasc&search=week');
  });

  it('hides creating and row actions the user’s role does not allow', async () => {
    renderPage(
      '/manage/policies?o=1',
      buildProfile({ permissions: { '1': ['PatchPolicy.read', 'CustomPolicy.read'] } }),
    );
    await loaded();
    expect(screen.queryByRole('link', { name: T.create })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.rowActions('Weekly patching') }));
    expect(await screen.findByRole('menuitem', { name: T.edit })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: T.runNow })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: T.delete })).not.toBeInTheDocument();
  });
});

describe('run now', () => {
  it('asks first, then follows the run in the execution banner until it completes', async () => {
    // The clock is the test's: time passes as usual, and the test moves it on where it waits.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    renderPage();
    await loaded();
    await openRowAction('Weekly patching', T.runNow);
    const dialog = await screen.findByRole('dialog', { name: T.runNowTitle });
    expect(calls('POST', '/api/policies/1/action')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: T.runNow }));
    await waitFor(() => expect(calls('POST', '/api/policies/1/action')).toHaveLength(1));
    expect(JSON.parse(calls('POST', '/api/policies/1/action')[0]!.body)).toEqual({ action: 'remediateAll' });
    expect(calls('POST', '/api/policies/1/action')[0]!.query.get('o')).toBe('1');
    expect(await screen.findByText('The execution is queued.')).toBeInTheDocument();

    state.run = { body: buildRun({ id: 900, policy_id: 1, status: 'completed' }) };
    expect(await screen.findByText('The execution completed.')).toBeInTheDocument();
    const polls = calls('GET', '/api/policies/1/runs/900').length;
    // A finished run is not polled again.
    await vi.advanceTimersByTimeAsync(2500);
    expect(calls('GET', '/api/policies/1/runs/900')).toHaveLength(polls);
  });
});

describe('clone', () => {
  it('is offered only with the clone-policy flag', async () => {
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: T.rowActions('Weekly patching') }));
    await screen.findByRole('menuitem', { name: T.edit });
    expect(screen.queryByRole('menuitem', { name: T.clone })).not.toBeInTheDocument();
  });

  it('names the copy, follows the job’s progress and opens the inactive copy', async () => {
    state.job = {
      body: {
        id: '5b0b8d6e-2f4c-4a55-9f65-6f1d2b8a0c11',
        status: 'running',
        progress: 40,
        policy_name: 'Copy of patching',
        policy_type_name: 'patch',
        data: [],
        error: null,
      },
    };
    const { router } = renderPage('/manage/policies?o=1', withClone());
    await loaded();
    await openRowAction('Weekly patching', T.clone);
    const dialog = await screen.findByRole('dialog', { name: T.cloneTitle });
    const name = within(dialog).getByRole('textbox', { name: new RegExp(T.cloneName) });
    expect(name).toHaveValue('Clone of Weekly patching');
    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole('button', { name: T.cloneStart }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    await userEvent.type(name, 'Copy of patching');
    await userEvent.click(within(dialog).getByRole('button', { name: T.cloneStart }));
    expect(await within(dialog).findByText(T.cloneProgress(40))).toBeInTheDocument();
    expect(JSON.parse(calls('POST', '/api/policies/1/clone')[0]!.body)).toEqual({ name: 'Copy of patching' });

    state.job = {
      body: {
        ...(state.job.body as object),
        status: 'completed',
        progress: 100,
        data: [{ policy_id: 77, zone_id: 'zone-1', org_id: 1 }],
      },
    };
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/policies/77'));
    expect(router.state.location.search).toBe('?o=1');
    expect(await screen.findByText(T.cloneDone('Copy of patching'))).toBeInTheDocument();
  });
});

describe('clone into other zones', () => {
  it('sends the chosen zones and opens the copy in this zone', async () => {
    const acme = buildZone({ id: 1, name: 'Acme', zone_id: '6f1f0a47-8a0e-4f7e-9a9e-0d6c0b7f9a01' });
    const beta = buildZone({ id: 2, name: 'Beta', zone_id: '6f1f0a47-8a0e-4f7e-9a9e-0d6c0b7f9a02' });
    state.job = {
      body: {
        id: '5b0b8d6e-2f4c-4a55-9f65-6f1d2b8a0c11',
        status: 'completed',
        progress: 100,
        policy_name: 'Clone of Weekly patching',
        policy_type_name: 'patch',
        data: [
          { policy_id: 80, zone_id: beta.zone_id, org_id: 2 },
          { policy_id: 81, zone_id: acme.zone_id, org_id: 1 },
        ],
        error: null,
      },
    };
    const profile = buildProfile({ orgs: [acme, beta], features: { ...FEATURE_FLAGS, clone_policy: true } });
    const { router } = renderPage('/manage/policies?o=1', profile);
    await loaded();
    await openRowAction('Weekly patching', T.clone);
    const dialog = await screen.findByRole('dialog', { name: T.cloneTitle });
    await userEvent.click(
      within(dialog)
        .getAllByLabelText(T.cloneZones)
        .find((el) => el.getAttribute('type') !== 'hidden')!,
    );
    await userEvent.click(await screen.findByRole('option', { name: 'Beta' }));
    await userEvent.click(within(dialog).getByRole('button', { name: T.cloneStart }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/policies/81'));
    expect(JSON.parse(calls('POST', '/api/policies/1/clone').at(-1)!.body)).toEqual({
      name: 'Clone of Weekly patching',
      target_zone_ids: [acme.zone_id, beta.zone_id],
    });
  });
});

describe('delete', () => {
  it('asks, then deletes the policy', async () => {
    renderPage();
    await loaded();
    await openRowAction('Firewall on', T.delete);
    const dialog = await screen.findByRole('dialog', { name: T.deleteTitle });
    expect(within(dialog).getByText(T.deleteBody('Firewall on'))).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: T.delete }));
    expect(await screen.findByText(T.deleted('Firewall on'))).toBeInTheDocument();
    expect(calls('DELETE', '/api/policies/2')[0]!.query.get('o')).toBe('1');
  });
});
