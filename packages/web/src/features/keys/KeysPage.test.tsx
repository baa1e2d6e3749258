import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { KeysPage } from './KeysPage';

const acme = buildZone({ id: 1, name: 'Acme' });
const beta = buildZone({ id: 2, name: 'Beta' });
const SECRET = `pw_${'a1B2c3D4e5'.repeat(4)}`;

type Key = {
  id: number;
  name: string;
  prefix: string;
  zone_id: number | null;
  created_at: string;
  last_used_at: null;
  expires_at: string | null;
};
let keys: Key[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;
const creations = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/users/self/api_keys');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/self/api_keys': () => ({ body: keys }),
    'POST /api/users/self/api_keys': (req) => {
      const body = JSON.parse(req.body) as { name: string; zone_id?: number | null; expires_in_days?: number };
      const key: Key = {
        id: keys.length + 1,
        name: body.name,
        prefix: SECRET.slice(0, 8),
        zone_id: body.zone_id ?? Number(req.query.get('o')),
        created_at: '2026-03-01T10:00:00Z',
        last_used_at: null,
        expires_at: body.expires_in_days ? '2026-03-31T10:00:00Z' : null,
      };
      keys = [...keys, key];
      return { status: 201, body: { ...key, key: SECRET } };
    },
    'DELETE /api/users/self/api_keys/1': () => {
      keys = keys.filter((k) => k.id !== 1);
      return { status: 204 };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  keys = [];
});

function renderKeys(profile = buildProfile({ orgs: [acme, beta] })) {
  return renderInShell([{ path: '/settings/keys', element: <KeysPage /> }], '/settings/keys?o=1', { profile });
}

describe('API keys', () => {
  it('shows a new key once, with a copy button and a warning, then never again', async () => {
    renderKeys();
    expect(await screen.findByText('You have no API keys yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API Key' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'CI pipeline');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Expires in/ }), '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Key' }));

    expect(await within(dialog).findByDisplayValue(SECRET)).toBeInTheDocument();
    expect(within(dialog).getByText("Copy this key now. It won't be shown again.")).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy API key' })).toBeInTheDocument();
    expect(JSON.parse(creations().at(-1)!.body)).toEqual({ name: 'CI pipeline', zone_id: 1, expires_in_days: 30 });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'Keys' });
    expect(await within(table).findByRole('cell', { name: 'CI pipeline' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(SECRET);

    // Opening the dialog again starts a new key instead of showing the old one.
    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    const again = await screen.findByRole('dialog', { name: 'Create API Key' });
    expect(within(again).getByRole('textbox', { name: /^Name/ })).toHaveValue('');
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('offers all zones only to global administrators', async () => {
    renderKeys();
    await userEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    const zone = within(await screen.findByRole('dialog')).getByRole('combobox', { name: /^Zone/ });
    expect(within(zone).queryByRole('option', { name: 'All zones' })).not.toBeInTheDocument();
    expect(
      within(zone)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Acme', 'Beta']);
  });

  it('creates an all-zones key for a global administrator', async () => {
    renderKeys(buildProfile({ orgs: [acme, beta], is_global_admin: true, account_rbac_role: 'global-admin' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Everything');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /^Zone/ }), 'All zones');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await within(dialog).findByDisplayValue(SECRET);
    expect(JSON.parse(creations().at(-1)!.body)).toEqual({ name: 'Everything', zone_id: null });
  });

  it('requires a name and revokes a key after confirmation', async () => {
    keys = [
      {
        id: 1,
        name: 'Old key',
        prefix: 'pw_old12',
        zone_id: 2,
        created_at: '2026-01-01T00:00:00Z',
        last_used_at: null,
        expires_at: null,
      },
    ];
    renderKeys();
    const table = await screen.findByRole('table', { name: 'Keys' });
    expect(await within(table).findByRole('cell', { name: 'Beta' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Revoke: Old key' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke API Key' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Success: The key Old key has been revoked.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('You have no API keys yet.')).toBeInTheDocument());
  });
});
