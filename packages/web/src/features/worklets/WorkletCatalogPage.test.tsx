import type { WorkletCatalogEntry } from '@patchwell/core/worklets/worklet-catalog.schema';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildGroup, buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { CreatePolicyPage } from '../policies/CreatePolicyPage';
import { buildPolicy } from '../policies/policies.factories';
import { POLICY_TEXTS } from '../policies/policies.texts';
import { WorkletCatalogPage } from './WorkletCatalogPage';
import { WorkletDetailPage } from './WorkletDetailPage';
import { WORKLET_TEXTS as T } from './worklets.texts';

const firewall: WorkletCatalogEntry = {
  id: 'linux-firewall-enabled',
  uuid: '0b0e7f4e-3a52-4d36-9a59-0b5b1f1c1d01',
  legacy_id: 7,
  name: 'Enable the firewall (ufw)',
  description: 'Checks that ufw is active and enables it when it is not.',
  category: 'firewall',
  os_family: 'linux',
  language: 'bash',
  version: '1.0.0',
  verified: true,
  parameters: [],
  evaluation_code: 'ufw status | grep -q "Status: active"',
  remediation_code: 'ufw --force enable',
};
const removePackage: WorkletCatalogEntry = {
  id: 'linux-package-removed',
  uuid: '0b0e7f4e-3a52-4d36-9a59-0b5b1f1c1d02',
  legacy_id: 12,
  name: 'Remove a package',
  description: 'Removes the named package when it is installed.',
  category: 'software',
  os_family: 'linux',
  language: 'bash',
  version: '1.0.0',
  verified: true,
  parameters: [{ name: 'PACKAGE_NAME', description: 'The package to remove.', default: 'telnet' }],
  evaluation_code: 'PACKAGE_NAME=\'telnet\'\n! dpkg -s "$PACKAGE_NAME" >/dev/null 2>&1',
  remediation_code: 'PACKAGE_NAME=\'telnet\'\napt-get remove -y "$PACKAGE_NAME"',
};
const state = { ownWorklets: [] as ReturnType<typeof buildPolicy>[] };

let server: Awaited<ReturnType<typeof startTestServer>>;
const catalogCalls = () => server.requests.filter((r) => r.path === '/api/worklet-catalog');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/worklet-catalog': () => ({ body: { results: [firewall], size: 1 } }),
    'GET /api/worklet-catalog/linux-firewall-enabled': () => ({ body: firewall }),
    'GET /api/worklet-catalog/linux-package-removed': () => ({ body: removePackage }),
    'GET /api/policies': () => ({ body: { data: state.ownWorklets, size: state.ownWorklets.length } }),
    'GET /api/servergroups': () => ({ body: [buildGroup({ id: 1, name: 'Servers' })] }),
    'POST /api/policies': () => ({
      status: 201,
      body: buildPolicy({ id: 40, name: 'Remove rsh' }),
    }),
    'GET /api/policies/40': () => ({ body: buildPolicy({ id: 40, name: 'Remove rsh' }) }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.ownWorklets = [];
});

const renderAt = (entry: string) =>
  renderInShell(
    [
      { path: '/manage/worklet-catalog', element: <WorkletCatalogPage /> },
      { path: '/manage/worklet-catalog/:wid', element: <WorkletDetailPage /> },
      { path: '/manage/policies/create', element: <CreatePolicyPage /> },
    ],
    entry,
    { profile: buildProfile() },
  );

describe('worklet catalogue', () => {
  it('says the zone has no worklets of its own, and lists the catalogue', async () => {
    renderAt('/manage/worklet-catalog?o=1');
    expect(await screen.findByText(T.noWorklets, undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: firewall.name })).toBeInTheDocument();
    const own = server.requests.find((r) => r.path === '/api/policies')!;
    expect(own.query.get('type')).toBe('custom');
  });

  it('lists the zone’s worklet policies instead of the empty text', async () => {
    state.ownWorklets = [
      buildPolicy({
        id: 8,
        name: 'Rotate logs',
        policy_type_name: 'custom',
        configuration: { os_family: 'linux', remediation_code: 'logrotate -f /etc/logrotate.conf' },
      }),
    ];
    renderAt('/manage/worklet-catalog?o=1');
    expect(await screen.findByRole('link', { name: 'Rotate logs' }, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.queryByText(T.noWorklets)).not.toBeInTheDocument();
  });

  it('filters by OS and category', async () => {
    renderAt('/manage/worklet-catalog?o=1');
    await screen.findByRole('article', { name: firewall.name }, { timeout: 4000 });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.os }), 'windows');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.category }), 'encryption');
    await waitFor(() => expect(catalogCalls().at(-1)!.query.get('category')).toBe('encryption'));
    expect(catalogCalls().at(-1)!.query.get('os_family')).toBe('windows');
    expect(catalogCalls().at(-1)!.query.get('page')).toBe('0');
  });

  it('shows a worklet’s code and creates a worklet policy prefilled from it', async () => {
    const { router } = renderAt('/manage/worklet-catalog/linux-firewall-enabled?o=1');
    expect(
      await screen.findByRole('heading', { level: 1, name: firewall.name }, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: T.evaluationCode })).getByText(firewall.evaluation_code),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: T.remediationCode })).getByText(firewall.remediation_code),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: T.createPolicy }));
    expect(router.state.location.search).toBe('?o=1&type=custom&worklet=linux-firewall-enabled');
    const form = await screen.findByRole('form', { name: 'Worklet Policy' }, { timeout: 10_000 });
    expect(within(form).getByRole('textbox', { name: new RegExp(`^${POLICY_TEXTS.name}`) })).toHaveValue(firewall.name);
    expect(within(form).getByRole('textbox', { name: new RegExp(`^${POLICY_TEXTS.remediationCode}`) })).toHaveValue(
      firewall.remediation_code,
    );
    expect(within(form).getByRole('textbox', { name: new RegExp(`^${POLICY_TEXTS.evaluationCode}`) })).toHaveValue(
      firewall.evaluation_code,
    );
  });

  it('sets a parameter in both scripts of a policy made from a worklet', async () => {
    renderAt('/manage/policies/create?o=1&type=custom&worklet=linux-package-removed');
    const form = await screen.findByRole('form', { name: 'Worklet Policy' }, { timeout: 10_000 });
    const param = within(within(form).getByRole('group', { name: POLICY_TEXTS.parameters })).getByRole('textbox', {
      name: /^PACKAGE_NAME/,
    });
    expect(param).toHaveValue('telnet');
    await userEvent.clear(param);
    await userEvent.type(param, "rsh's");
    const code = (label: string) =>
      within(form).getByRole('textbox', { name: new RegExp(`^${label}`) }) as HTMLTextAreaElement;
    expect(code(POLICY_TEXTS.remediationCode).value).toBe(
      "PACKAGE_NAME='rsh'\\''s'\napt-get remove -y \"$PACKAGE_NAME\"",
    );
    expect(code(POLICY_TEXTS.evaluationCode).value.split('\n')[0]).toBe("PACKAGE_NAME='rsh'\\''s'");

    // Saved, the policy names the catalogue entry it came from.
    await userEvent.click(within(form).getByRole('button', { name: POLICY_TEXTS.save }));
    const review = await screen.findByRole('dialog', { name: POLICY_TEXTS.review.title });
    await userEvent.click(within(review).getByRole('button', { name: POLICY_TEXTS.review.confirm }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1));
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body)).toMatchObject({ community_worklet_id: 12, policy_type_name: 'custom' });
  });
});
