import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildGroup, buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { RemoteSettingsPage } from './RemoteSettingsPage';

const T = CONSOLE_TEXTS.remote;
const acme = buildZone({ id: 1, name: 'Acme' });
let saved = { shell_enabled: false, unattended: false, unattended_group_ids: [] as number[], idle_timeout_minutes: 15 };
let server: Awaited<ReturnType<typeof startTestServer>>;
const puts = () => server.requests.filter((r) => r.method === 'PUT' && r.path === '/api/remote-settings');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/remote-settings': () => ({ body: saved }),
    'PUT /api/remote-settings': (req) => {
      saved = { ...saved, ...(JSON.parse(req.body) as Partial<typeof saved>) };
      return { body: saved };
    },
    'GET /api/servergroups': () => ({
      body: [buildGroup({ id: 7, name: 'Kiosks' }), buildGroup({ id: 8, name: 'Desks' })],
    }),
  });
  api.configure({ baseUrl: server.url });
});
afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

describe('/settings/remote-access', () => {
  it('lets sessions start unattended on one group’s devices while the others still ask', async () => {
    renderInShell(
      [{ path: '/settings/remote-access', element: <RemoteSettingsPage /> }],
      '/settings/remote-access?o=1',
      {
        profile: buildProfile({ orgs: [acme] }),
      },
    );
    const groups = await screen.findByLabelText(T.unattendedGroups, { selector: 'input' });
    await waitFor(() => expect(groups).toBeEnabled());
    await userEvent.click(groups);
    await userEvent.click(await screen.findByRole('option', { name: 'Kiosks' }));
    await userEvent.click(screen.getByRole('button', { name: T.save }));
    expect(await screen.findByText(T.saved)).toBeInTheDocument();
    expect(JSON.parse(puts()[0]!.body)).toMatchObject({ unattended: false, unattended_group_ids: [7] });
  });
});
