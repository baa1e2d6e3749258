import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { buildGroup, buildProfile } from '../../../test/factories';
import { renderInShell } from '../../../test/render';
import { startTestServer, type TestReply } from '../../../test/server';
import { CreatePolicyPage } from '../CreatePolicyPage';
import { buildPolicy } from '../policies.factories';
import { POLICY_TEXTS as T } from '../policies.texts';

// The form is large; on a loaded machine a test walking it takes tens of seconds.

const SCRIPT = '#!/bin/sh\necho installing acme\n';
const STORED = {
  id: 'c0ffee00-0000-4000-8000-000000000001',
  name: 'acme-setup.sh',
  size_bytes: 2048,
  sha256: 'a'.repeat(64),
};
const state: { upload: TestReply } = { upload: { status: 201, body: STORED } };

let server: Awaited<ReturnType<typeof startTestServer>>;
const requestsTo = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servergroups': () => ({ body: [buildGroup({ id: 1, name: 'Servers' })] }),
    'POST /api/policies/installers': () => state.upload,
    [`DELETE /api/policies/installers/${STORED.id}`]: () => ({ status: 204 }),
    'POST /api/policies': (req) => ({
      status: 201,
      body: buildPolicy({ id: 42, name: (JSON.parse(req.body) as { name: string }).name }),
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
  state.upload = { status: 201, body: STORED };
});

async function openForm() {
  renderInShell(
    [
      { path: '/manage/policies/create', element: <CreatePolicyPage /> },
      { path: '/manage/policies/:policyId', element: <p>Saved policy</p> },
    ],
    '/manage/policies/create?o=1&type=required_software',
    { profile: buildProfile() },
  );
  const form = await screen.findByRole('form', { name: 'Required Software Policy' }, { timeout: 10_000 });
  await userEvent.click(within(form).getByRole('textbox', { name: new RegExp(`^${T.name}`) }));
  await userEvent.paste('Acme everywhere');
  await userEvent.click(within(form).getByRole('textbox', { name: new RegExp(`^${T.packageName}`) }));
  await userEvent.paste('acme');
  return form;
}

const fileInputOf = (form: HTMLElement) => form.querySelector<HTMLInputElement>('input[type="file"]')!;
const commandBox = (form: HTMLElement) =>
  within(form).getByRole('textbox', { name: new RegExp(`^${T.installCommand}`) });
const save = (form: HTMLElement) => userEvent.click(within(form).getByRole('button', { name: T.save }));
/** Saves a valid new policy: its review opens, and Create Policy confirms it. */
async function create(form: HTMLElement) {
  await save(form);
  const review = await screen.findByRole('dialog', { name: T.review.title });
  await userEvent.click(within(review).getByRole('button', { name: T.review.confirm }));
}

describe('the installer of a required-software policy', () => {
  it('uploads the chosen file, shows it, needs an install command, and saves it with the policy', async () => {
    const form = await openForm();
    expect(commandBox(form)).not.toBeRequired();
    await userEvent.upload(fileInputOf(form), new File([SCRIPT], 'acme-setup.sh', { type: 'application/x-sh' }));

    const uploaded = await within(form).findByRole('group', { name: T.installerUploaded });
    expect(within(uploaded).getByText('acme-setup.sh')).toBeInTheDocument();
    expect(within(uploaded).getByText('2.0 KB')).toBeInTheDocument();
    const [upload] = requestsTo('POST', '/api/policies/installers');
    expect(upload!.query.get('o')).toBe('1');
    expect(upload!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload!.body).toContain('filename="acme-setup.sh"');
    expect(upload!.body).toContain(SCRIPT);

    // With an installer, the command is required (core's schema says so).
    expect(commandBox(form)).toBeRequired();
    await save(form);
    expect(await within(form).findByText('Install command is required')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/policies')).toHaveLength(0);

    await userEvent.click(commandBox(form));
    await userEvent.paste('sh "$INSTALLER"');
    await create(form);
    await waitFor(() => expect(requestsTo('POST', '/api/policies')).toHaveLength(1));
    const body = JSON.parse(requestsTo('POST', '/api/policies')[0]!.body) as { configuration: Record<string, unknown> };
    expect(body.configuration).toMatchObject({ installer: STORED, installation_code: 'sh "$INSTALLER"' });
  });

  it('removes the installer, freeing the upload, and the command is optional again', async () => {
    const form = await openForm();
    await userEvent.upload(fileInputOf(form), new File([SCRIPT], 'acme-setup.sh'));
    const uploaded = await within(form).findByRole('group', { name: T.installerUploaded });
    await userEvent.click(within(uploaded).getByRole('button', { name: T.installerRemove }));

    expect(within(form).queryByRole('group', { name: T.installerUploaded })).not.toBeInTheDocument();
    expect(fileInputOf(form)).toBeInTheDocument();
    expect(commandBox(form)).not.toBeRequired();
    await waitFor(() => expect(requestsTo('DELETE', `/api/policies/installers/${STORED.id}`)).toHaveLength(1));
    await create(form);
    await waitFor(() => expect(requestsTo('POST', '/api/policies')).toHaveLength(1));
    const body = JSON.parse(requestsTo('POST', '/api/policies')[0]!.body) as { configuration: Record<string, unknown> };
    expect(body.configuration).toMatchObject({ installer: null, installation_code: null });
  });

  it('shows the server’s refusal of a file too large', async () => {
    state.upload = {
      status: 413,
      body: { code: 'installers.too_large', message: 'The installer is larger than 512 MiB.' },
    };
    const form = await openForm();
    await userEvent.upload(fileInputOf(form), new File([SCRIPT], 'huge.iso'));
    expect(await within(form).findByText('The installer is larger than 512 MiB.')).toBeInTheDocument();
    expect(within(form).queryByRole('group', { name: T.installerUploaded })).not.toBeInTheDocument();
  });
});
