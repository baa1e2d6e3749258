import { TEXTS } from '@patchwell/core/texts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildGroup, buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer, type TestReply } from '../../test/server';
import { PolicyEditorPage } from './PolicyEditorPage';
import { buildPolicy, buildRun } from './policies.factories';
import { POLICY_TEXTS as T } from './policies.texts';

// Monday and Wednesday (2 | 8), the 1st and 3rd week (2 | 8), January and December (2 | 4096).
const scheduled = buildPolicy({
  id: 3,
  name: 'Month ends',
  schedule_days: 10,
  schedule_weeks_of_month: 10,
  schedule_months: 4098,
  schedule_time: '23:30',
  scheduled_timezone: 'UTC+0530',
  configuration: { patch_rule: 'filter', filter_type: 'severity', severity_filter: ['critical', 'high'] },
});
const worklet = buildPolicy({
  id: 4,
  name: 'Firewall on',
  policy_type_name: 'custom',
  configuration: { os_family: 'linux', remediation_code: 'ufw enable' },
});
const state: { run: TestReply } = { run: { body: buildRun() } };

let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/policies/3': () => ({ body: scheduled }),
    'GET /api/policies/4': () => ({ body: worklet }),
    'GET /api/policies/4/runs': () => ({ body: { data: [], size: 0 } }),
    'PUT /api/policies/3': (req) => ({ body: { ...scheduled, ...(JSON.parse(req.body) as object) } }),
    'GET /api/servergroups': () => ({ body: [buildGroup({ id: 1, name: 'Servers' })] }),
    'POST /api/policies/3/action': () => ({ status: 202, body: { run: buildRun({ id: 901, policy_id: 3 }) } }),
    'GET /api/policies/3/runs/901': () => state.run,
    'GET /api/policies/3/runs': () => ({
      body: {
        data: [
          buildRun({
            id: 901,
            policy_id: 3,
            status: 'completed',
            results: { success: 1, in_progress: 0, error: 1, pending: 0, timed_out: 0, canceled: 0 },
          }),
        ],
        size: 1,
      },
    }),
    'GET /api/policies/3/runs/901/results': () => ({
      body: {
        data: [
          {
            id: 1,
            run_id: 901,
            policy_id: 3,
            server_id: 11,
            server_name: 'web-1',
            status: 'error',
            patches: ['openssl'],
            exit_code: 100,
            stdout_tail: 'Reading package lists...',
            stderr_tail: 'E: Could not get lock /var/lib/dpkg/lock-frontend',
            create_time: '2026-11-21T10:00:00Z',
            finished_at: '2026-11-21T10:01:00Z',
            command_id: 5,
            command_type: 'install_updates',
            message: null,
            queued_at: '2026-11-21T10:00:01Z',
            simulated: false,
          },
          {
            id: 2,
            run_id: 901,
            policy_id: 3,
            server_id: 12,
            server_name: 'web-2',
            status: 'success',
            patches: ['openssl'],
            exit_code: 0,
            stdout_tail: 'Inst openssl (3.0.2 Debian:12)',
            stderr_tail: null,
            create_time: '2026-11-21T10:00:00Z',
            finished_at: '2026-11-21T10:01:00Z',
            command_id: 6,
            command_type: 'install_updates',
            message: null,
            queued_at: '2026-11-21T10:00:01Z',
            simulated: true,
          },
        ],
        size: 2,
      },
    }),
    'POST /api/policies/preview': () => ({
      body: {
        data: [
          {
            id: 11,
            name: 'web-1',
            display_name: 'web-1',
            hostname: 'web-1',
            os_family: 'linux',
            os_version: '12',
            server_group_id: 1,
            tags: [],
            ip_addrs: [],
            ip_addrs_private: [],
            connected: true,
          },
        ],
        size: 1,
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
  state.run = { body: buildRun({ id: 901, policy_id: 3, status: 'running' }) };
});

const renderPage = (entry = '/manage/policies/3?o=1', profile = buildProfile()) =>
  renderInShell(
    [
      { path: '/manage/policies/:policyId', element: <PolicyEditorPage /> },
      { path: '/manage/policies', element: <p>Policy list</p> },
    ],
    entry,
    { profile },
  );
const formOf = () => screen.findByRole('form', { name: 'Patch Policy' }, { timeout: 10_000 });
const box = (form: HTMLElement, name: string) => within(form).getByRole('checkbox', { name });

describe('a policy outside the zone’s plan', () => {
  it('stays readable, with the upsell above it (worklets need Standard)', async () => {
    const basic = buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme', parent_id: 1, plan: 'patch' })] });
    renderPage('/manage/policies/4?o=1', basic);
    expect(
      await screen.findByRole('heading', { name: 'Feature Unavailable' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Firewall on' })).toBeInTheDocument();
  });

  it('shows no upsell on a plan that includes it', async () => {
    const standard = buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme', parent_id: 1, plan: 'manage' })] });
    renderPage('/manage/policies/4?o=1', standard);
    expect(await screen.findByRole('heading', { name: 'Firewall on' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Feature Unavailable' })).not.toBeInTheDocument();
  });
});

describe('schedule editor', () => {
  it('shows the stored bitmasks as checkboxes and saves the edited masks back', async () => {
    renderPage();
    const form = await formOf();
    for (const name of ['Monday', 'Wednesday', '1st', '3rd', 'January', 'December']) {
      expect(box(form, name)).toBeChecked();
    }
    for (const name of ['Tuesday', 'Friday', 'Sunday', '2nd', '5th', 'February', 'November']) {
      expect(box(form, name)).not.toBeChecked();
    }
    expect(within(form).getByRole('textbox', { name: T.time })).toHaveValue('23:30');
    expect(within(form).getByRole('combobox', { name: T.timezone })).toHaveValue('UTC+0530');
    expect(within(form).getByRole('combobox', { name: T.timezone }).querySelectorAll('option')).toHaveLength(39);
    expect(within(form).getByRole('status').textContent).toMatch(/^Next run: /);

    await userEvent.click(box(form, 'Friday'));
    await userEvent.click(box(form, 'Wednesday'));
    await userEvent.click(box(form, '5th'));
    await userEvent.click(box(form, 'January'));
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.timezone }), 'device');
    expect(within(form).getByRole('status').textContent).toMatch(/each device runs at its own/);
    await userEvent.click(within(form).getByRole('button', { name: T.save }));
    await waitFor(() => expect(calls('PUT', '/api/policies/3')).toHaveLength(1));
    const body = JSON.parse(calls('PUT', '/api/policies/3')[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: 3,
      schedule_days: 2 | 32, // Monday, Friday
      schedule_weeks_of_month: 2 | 8 | 32, // 1st, 3rd, 5th
      schedule_months: 4096, // December
      schedule_time: '23:30',
      use_scheduled_timezone: false,
      configuration: { patch_rule: 'filter', filter_type: 'severity', severity_filter: ['critical', 'high'] },
    });
    expect(await screen.findByText(T.saved('Month ends'))).toBeInTheDocument();
  });

  it('rejects a time that is not HH:mm and a schedule without days', async () => {
    renderPage();
    const form = await formOf();
    const time = within(form).getByRole('textbox', { name: T.time });
    await userEvent.clear(time);
    await userEvent.type(time, '25:00');
    await userEvent.click(box(form, 'Monday'));
    await userEvent.click(box(form, 'Wednesday'));
    await userEvent.click(within(form).getByRole('button', { name: T.save }));
    expect(await within(form).findByText('Enter a 24-hour time as HH:mm.')).toBeInTheDocument();
    expect(within(form).getByText(T.chooseDay)).toBeInTheDocument();
    expect(within(form).getByText(TEXTS.validation.summary)).toBeInTheDocument();
    expect(calls('PUT', '/api/policies/3')).toHaveLength(0);
  });

  it('asks before leaving with unsaved changes', async () => {
    const { router } = renderPage();
    const form = await formOf();
    await userEvent.type(within(form).getByRole('textbox', { name: new RegExp(`^${T.name}`) }), '!');
    await userEvent.click(screen.getByRole('link', { name: T.back }));
    expect(await screen.findByText(TEXTS.generic.unsavedChanges)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/manage/policies/3');
  });
});

describe('unsaved changes after a save', () => {
  it('still asks before leaving once the policy was saved and edited again', async () => {
    const { router } = renderPage();
    const form = await formOf();
    const name = within(form).getByRole('textbox', { name: new RegExp(`^${T.name}`) });
    await userEvent.type(name, '!');
    await userEvent.click(within(form).getByRole('button', { name: T.save }));
    expect(await screen.findByText(T.saved('Month ends!'))).toBeInTheDocument();
    await userEvent.type(name, '?');
    await userEvent.click(screen.getByRole('link', { name: T.back }));
    expect(await screen.findByText(TEXTS.generic.unsavedChanges)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/manage/policies/3');
  });
});

describe('run now and results', () => {
  it('shows the execution banner’s states and stops at completion', async () => {
    renderPage();
    await formOf();
    await userEvent.click(screen.getByRole('button', { name: T.runNow }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: T.runNowTitle })).getByRole('button', { name: T.runNow }),
    );
    expect(await screen.findByText('The execution is running.')).toBeInTheDocument();
    state.run = { body: buildRun({ id: 901, policy_id: 3, status: 'completed' }) };
    expect(await screen.findByText('The execution completed.')).toBeInTheDocument();
  });

  it('previews the devices the targets hit', async () => {
    renderPage();
    const form = await formOf();
    await userEvent.click(within(form).getByRole('button', { name: T.preview }));
    const preview = await within(form).findByRole('region', { name: T.previewTitle });
    expect(within(preview).getByText(T.previewCount(1))).toBeInTheDocument();
    expect(within(preview).getByText(/web-1/)).toBeInTheDocument();
    expect(JSON.parse(calls('POST', '/api/policies/preview')[0]!.body)).toEqual({
      server_groups: [1],
      device_filters: [],
    });
  });

  it('lists runs and a run’s per-device results with their output', async () => {
    renderPage('/manage/policies/3?o=1&tab=runs');
    const runs = await screen.findByRole('table', { name: T.runs }, { timeout: 10_000 });
    expect(within(runs).getByText('1 success, 1 error')).toBeInTheDocument();
    await userEvent.click(within(runs).getByRole('button', { name: T.viewResults }));
    const results = await screen.findByRole('table', { name: T.results });
    expect(within(results).getByText('web-1')).toBeInTheDocument();
    expect(within(results).getByText('100')).toBeInTheDocument();
    // A dry run says so beside its status; a real one does not.
    const dryRun = within(results).getByText('web-2').closest('tr')!;
    expect(within(dryRun).getByText(T.simulated)).toBeInTheDocument();
    expect(within(within(results).getByText('web-1').closest('tr')!).queryByText(T.simulated)).toBeNull();
    await userEvent.click(within(results).getByRole('button', { name: T.showOutput('web-1') }));
    const output = await screen.findByRole('dialog', { name: T.showOutput('web-1') });
    expect(output).toHaveTextContent('E: Could not get lock /var/lib/dpkg/lock-frontend');
  });

  it('is read-only without modify and hides Run now without execute', async () => {
    renderPage('/manage/policies/3?o=1', buildProfile({ permissions: { '1': ['PatchPolicy.read'] } }));
    const form = await formOf();
    expect(screen.getByText(T.readOnly)).toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: T.save })).not.toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: new RegExp(`^${T.name}`) })).toBeDisabled();
    expect(screen.queryByRole('button', { name: T.runNow })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.delete })).not.toBeInTheDocument();
  });
});
