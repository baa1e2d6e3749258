import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';
import { TEXTS } from '@patchwell/core/texts';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { SecurityPage } from './SecurityPage';

const acme = buildZone({ id: 1, name: 'Acme' });
let saved = { max_lifetime_minutes: 720, idle_timeout_minutes: 30 };
let security = { require_mfa: false, account_require_mfa: false, require_sso: false, sso_available: false };
let server: Awaited<ReturnType<typeof startTestServer>>;
const puts = () => server.requests.filter((r) => r.method === 'PUT' && r.path === '/api/orgs/1/session-settings');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/session-settings': () => ({ body: saved }),
    'PUT /api/orgs/1/session-settings': (req) => {
      saved = JSON.parse(req.body) as typeof saved;
      return { body: saved };
    },
    'GET /api/orgs/1/security': () => ({ body: security }),
    'PUT /api/orgs/1/require-mfa': (req) => {
      security = { ...security, require_mfa: (JSON.parse(req.body) as { enabled: boolean }).enabled };
      return { body: security };
    },
  });
  api.configure({ baseUrl: server.url });
});
afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const open = (profile = buildProfile({ orgs: [acme] })) =>
  renderInShell([{ path: '/settings/security', element: <SecurityPage /> }], '/settings/security?o=1', { profile });
const group = (legend: string) => screen.getByRole('group', { name: legend });

describe('/settings/security', () => {
  it("saves the zone's session lifetime and idle timeout and says so", async () => {
    open();
    const idle = await screen.findByRole('group', { name: 'Idle timeout' });
    expect(within(idle).getByRole('textbox', { name: 'Minutes' })).toHaveValue('30');
    await userEvent.clear(within(group('Idle timeout')).getByRole('textbox', { name: 'Hours' }));
    await userEvent.type(within(group('Idle timeout')).getByRole('textbox', { name: 'Hours' }), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(TEXTS.success.sessionTimeoutsUpdated)).toBeInTheDocument();
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(puts()[0]!.body)).toEqual({ max_lifetime_minutes: 720, idle_timeout_minutes: 150 });
  });

  it('requires MFA of the zone, and offers SSO only once the account has a SAML connection', async () => {
    open();
    const mfa = await screen.findByRole('switch', { name: /^Require MFA/ });
    expect(mfa).not.toBeChecked();
    expect(screen.getByRole('switch', { name: /^Require SSO/ })).toBeDisabled();
    await userEvent.click(mfa);
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Require MFA/ })).toBeChecked());
    const sent = server.requests.filter((r) => r.method === 'PUT' && r.path === '/api/orgs/1/require-mfa');
    expect(JSON.parse(sent[0]!.body)).toEqual({ enabled: true });
  });

  it('shows a user without Organization.manage no form', async () => {
    const before = server.requests.length;
    open(
      buildProfile({
        orgs: [acme],
        rbac_role: 'Read Only',
        permissions: { '1': [...ROLE_GRANTS[2]] },
      }),
    );
    expect(
      await screen.findByText("Only the zone's administrators can change its session expiration."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(server.requests.slice(before).filter((r) => r.path.includes('session-settings'))).toEqual([]);
  });
});
