import { TEXTS } from '@patchwell/core/texts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildGroup, buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { CreatePolicyPage } from './CreatePolicyPage';
import { buildPolicy } from './policies.factories';
import { POLICY_TEXTS as T } from './policies.texts';

// The form is large and revalidates on each change after the first save; on a loaded
// machine a test walking it takes tens of seconds.

let server: Awaited<ReturnType<typeof startTestServer>>;
const posts = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/policies');
const lastBody = () =>
  JSON.parse(posts().at(-1)!.body) as Record<string, unknown> & { configuration: Record<string, unknown> };

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servergroups': () => ({ body: [buildGroup({ id: 1, name: 'Servers' })] }),
    'POST /api/policies': (req) => {
      const body = JSON.parse(req.body) as { name: string; policy_type_name: string };
      if (body.name === 'Taken') return { status: 400, body: { errors: { name: ['That name is already used.'] } } };
      return { status: 201, body: buildPolicy({ id: 42, name: body.name }) };
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
});

const renderPage = (entry: string, profile = buildProfile()) =>
  renderInShell(
    [
      { path: '/manage/policies/create', element: <CreatePolicyPage /> },
      { path: '/manage/policies/:policyId', element: <p>Saved policy</p> },
    ],
    entry,
    { profile },
  );

/** Types a value in one step (a paste), so the form revalidates once, not per keystroke. */
async function fill(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  await userEvent.click(input);
  await userEvent.paste(text);
}

const formOf = (label: string) => screen.findByRole('form', { name: label }, { timeout: 10_000 });
const save = (form: HTMLElement) => userEvent.click(within(form).getByRole('button', { name: T.save }));
/** Saves a valid form: the review of what the new policy will do opens, and Create Policy confirms it. */
async function create(form: HTMLElement) {
  await save(form);
  const review = await screen.findByRole('dialog', { name: T.review.title });
  await userEvent.click(within(review).getByRole('button', { name: T.review.confirm }));
}
/** The text box of a TagsInput (Mantine labels its hidden value input too). */
const tagsInput = (form: HTMLElement, label: string) =>
  within(form)
    .getAllByLabelText(label)
    .find((el) => el.getAttribute('type') !== 'hidden')!;
const nameBox = (form: HTMLElement) => within(form).getByRole('textbox', { name: new RegExp(`^${T.name}`) });

describe('choosing a type', () => {
  it('offers the types the role may create, and the catalogue for worklets', async () => {
    const { router } = renderPage('/manage/policies/create?o=1');
    expect(await screen.findByText(T.chooseType, undefined, { timeout: 4000 })).toBeInTheDocument();
    for (const label of ['Patch Policy', 'Worklet Policy', 'Required Software Policy', T.fromCatalog]) {
      expect(screen.getByRole('heading', { name: label })).toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole('link', { name: `${T.choose}: Required Software Policy` }));
    expect(router.state.location.search).toBe('?o=1&type=required_software');
    expect(await formOf('Required Software Policy')).toBeInTheDocument();
  });

  it('shows only patch policies to a role limited to them', async () => {
    renderPage('/manage/policies/create?o=1', buildProfile({ permissions: { '1': ['PatchPolicy.create'] } }));
    expect(await screen.findByRole('heading', { name: 'Patch Policy' }, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Worklet Policy' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: T.fromCatalog })).not.toBeInTheDocument();
  });
});

describe('patch policy form', () => {
  it('reports required fields with the summary, then creates the policy and opens it', async () => {
    const { router } = renderPage('/manage/policies/create?o=1&type=patch');
    const form = await formOf('Patch Policy');
    await save(form);
    expect(await within(form).findByText(TEXTS.validation.required)).toBeInTheDocument();
    expect(within(form).getByText(TEXTS.validation.summary)).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    await fill(nameBox(form), 'Taken');
    await create(form);
    expect(await within(form).findByText('That name is already used.')).toBeInTheDocument();

    await fill(nameBox(form), 'Nightly');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.patchMode }), 'patch_only');
    await save(form);
    expect(await within(form).findByText(TEXTS.validation.atLeastOne)).toBeInTheDocument();
    await userEvent.type(tagsInput(form, T.patterns), 'openssl*{enter}');
    await userEvent.click(within(form).getByRole('switch', { name: new RegExp(`^${T.catchUp}`) }));
    await create(form);

    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/policies/42'));
    expect(router.state.location.search).toBe('?o=1');
    const body = lastBody();
    expect(posts().at(-1)!.query.get('o')).toBe('1');
    expect(body).toMatchObject({
      policy_type_name: 'patch',
      name: 'Nightly',
      status: 'active',
      schedule_days: 254,
      schedule_time: '02:00',
      use_scheduled_timezone: true,
      scheduled_timezone: 'UTC+0000',
    });
    expect(body.configuration).toMatchObject({
      patch_rule: 'filter',
      filter_type: 'include',
      filters: ['openssl*'],
      missed_patch_window: true,
      custom_notification_deferment_periods: [1, 4, 8],
      custom_notification_max_delays: 6,
    });
  });

  it('requires attribute, condition and value of each advanced rule', async () => {
    renderPage('/manage/policies/create?o=1&type=patch');
    const form = await formOf('Patch Policy');
    await fill(nameBox(form), 'Old critical ones');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.patchMode }), 'patch_advanced');
    await save(form);
    expect(await within(form).findByText(TEXTS.validation.atLeastOne)).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: T.addRule }));
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.attribute }), 'patch-days-old');
    await save(form);
    expect(await within(form).findByText(T.packageTargeting)).toBeInTheDocument();

    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.condition }), 'greater-than');
    await userEvent.type(within(form).getByRole('textbox', { name: T.value }), '200');
    await save(form);
    expect(await within(form).findByText(TEXTS.validation.numberBetween(1, 180))).toBeInTheDocument();
    await userEvent.clear(within(form).getByRole('textbox', { name: T.value }));
    await userEvent.type(within(form).getByRole('textbox', { name: T.value }), '30');
    await create(form);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(lastBody().configuration).toMatchObject({
      patch_rule: 'advanced',
      advanced_filter: [{ left: 'patch-days-old', condition: 'greater-than', right: 30 }],
    });
  });

  it('checks deferral options and maximum deferrals, and needs complete device filters', async () => {
    renderPage('/manage/policies/create?o=1&type=patch');
    const form = await formOf('Patch Policy');
    await fill(nameBox(form), 'Deferred');
    await userEvent.click(within(form).getByRole('switch', { name: T.notifyUser }));
    await userEvent.click(within(form).getByRole('switch', { name: T.installDeferral }));
    const max = within(form).getByRole('textbox', { name: T.maxDeferrals });
    expect(max).toHaveValue('6');
    await userEvent.clear(max);
    await userEvent.type(max, '11');
    await userEvent.click(within(form).getByRole('switch', { name: T.deviceFiltersEnabled }));
    await userEvent.click(within(form).getByRole('button', { name: T.addFilter }));
    await save(form);
    expect(await within(form).findByText(TEXTS.validation.numberBetween(1, 10))).toBeInTheDocument();
    expect(within(form).getAllByText(TEXTS.validation.required).length).toBeGreaterThanOrEqual(2);
    expect(within(form).getByText(TEXTS.validation.atLeastOne)).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    await userEvent.clear(max);
    await userEvent.type(max, '3');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.filterField }), 'tag');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.filterOp }), 'not_in');
    await userEvent.type(tagsInput(form, T.filterValues), 'kiosk{enter}');
    await create(form);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(lastBody().configuration).toMatchObject({
      notify_user: true,
      install_deferral_enabled: true,
      custom_notification_max_delays: 3,
      device_filters_enabled: true,
      device_filters: [{ field: 'tag', op: 'not_in', value: ['kiosk'] }],
    });
  });
});

describe('worklet and required-software forms', () => {
  it('needs remediation code and runs PowerShell on Windows', async () => {
    renderPage('/manage/policies/create?o=1&type=custom');
    const form = await formOf('Worklet Policy');
    await fill(nameBox(form), 'Firewall on');
    await save(form);
    expect(await within(form).findByText('Remediation code is required')).toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.osFamily }), 'windows');
    expect(within(form).getByRole('combobox', { name: T.language })).toHaveValue('powershell');
    await userEvent.click(within(form).getByRole('textbox', { name: new RegExp(`^${T.remediationCode}`) }));
    await userEvent.paste('Set-NetFirewallProfile -Enabled True');
    await userEvent.click(within(form).getByRole('switch', { name: new RegExp(`^${T.scheduled}`) }));
    expect(within(form).getByText(T.onDemand)).toBeInTheDocument();
    await create(form);
    await waitFor(() => expect(posts()).toHaveLength(1));
    const body = lastBody();
    expect(body.schedule_days).toBe(0);
    expect(body.configuration).toMatchObject({
      os_family: 'windows',
      language: 'powershell',
      remediation_code: 'Set-NetFirewallProfile -Enabled True',
      evaluation_code: null,
    });
  });

  it('shows what a new policy will do before its first save, and saves nothing on Back', async () => {
    const { router } = renderPage('/manage/policies/create?o=1&type=patch');
    const form = await formOf('Patch Policy');
    await fill(nameBox(form), 'Nightly');
    await userEvent.click(tagsInput(form, T.groups));
    await userEvent.click(await screen.findByRole('option', { name: 'Servers' }));
    await save(form);
    const review = await screen.findByRole('dialog', { name: T.review.title });
    const summary = within(review).getByRole('table', { name: T.review.title });
    const row = (label: string) => within(summary).getByRole('rowheader', { name: label }).closest('tr')!;
    expect(row(T.review.does)).toHaveTextContent(T.review.patchRules.all!);
    expect(row(T.targets)).toHaveTextContent('Group Servers');
    expect(row(T.schedule)).toHaveTextContent(
      'Every Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday at 02:00, UTC+0000.',
    );
    expect(row(T.rebootMode)).toHaveTextContent(T.rebootModes.when_needed!);

    await userEvent.click(within(review).getByRole('button', { name: T.review.back }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts()).toHaveLength(0);
    expect(nameBox(form)).toHaveValue('Nightly');

    await create(form);
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/policies/42'));
    expect(posts()).toHaveLength(1);
    expect(lastBody().server_groups).toEqual([1]);
  });

  it('needs a package name and version', async () => {
    renderPage('/manage/policies/create?o=1&type=required_software');
    const form = await formOf('Required Software Policy');
    await fill(nameBox(form), 'Curl everywhere');
    await userEvent.clear(within(form).getByRole('textbox', { name: new RegExp(`^${T.packageVersion}`) }));
    await save(form);
    expect(await within(form).findByText('Package name is required')).toBeInTheDocument();
    expect(within(form).getByText('Package version is required')).toBeInTheDocument();
    await userEvent.type(within(form).getByRole('textbox', { name: new RegExp(`^${T.packageName}`) }), 'curl');
    await userEvent.type(within(form).getByRole('textbox', { name: new RegExp(`^${T.packageVersion}`) }), 'latest');
    await create(form);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(lastBody().configuration).toMatchObject({
      package_name: 'curl',
      package_version: 'latest',
      os_family: 'linux',
    });
  });
});
