import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { CONSOLE_TEXTS } from '../../../texts';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { FeatureFlagsPanel } from './FeatureFlagsPanel';

const T = CONSOLE_TEXTS.featureFlags;

const state = { account: {} as Record<string, boolean>, zone: {} as Record<string, boolean>, plan: 'tier3' };
const effective = (...layers: Record<string, boolean>[]) => Object.assign({ ...FEATURE_FLAGS }, ...layers);
const apply = (level: Record<string, boolean>, body: Record<string, boolean | null>) => {
  for (const [k, v] of Object.entries(body)) {
    if (v === null) delete level[k];
    else level[k] = v;
  }
};

let server: Awaited<ReturnType<typeof startTestServer>>;
const puts = (path: string) => server.requests.filter((r) => r.method === 'PUT' && r.path === path);

beforeAll(async () => {
  const accountState = () => ({ defaults: FEATURE_FLAGS, account: state.account, effective: effective(state.account) });
  const zoneState = () => ({ ...accountState(), zone: state.zone, effective: effective(state.account, state.zone) });
  server = await startTestServer({
    'GET /api/accounts/1/flags': () => ({ body: accountState() }),
    'PUT /api/accounts/1/flags': (req) => {
      apply(state.account, JSON.parse(req.body));
      return { body: accountState() };
    },
    'GET /api/accounts/1/zones/2/flags': () => ({ body: zoneState() }),
    'PUT /api/accounts/1/zones/2/flags': (req) => {
      apply(state.zone, JSON.parse(req.body));
      return { body: zoneState() };
    },
    'GET /api/accounts/1/zones/2': () => ({
      body: {
        id: 2,
        zone_id: '00000000-0000-4000-8000-000000000002',
        name: 'Beta',
        parent_id: null,
        plan: state.plan,
        trial_end_time: null,
        trial_expired: false,
        disabled: false,
        create_time: '2026-01-01T00:00:00Z',
        user_count: 1,
        role_name: 'Global Administrator',
      },
    }),
    'PUT /api/accounts/1/zones/2/plan': (req) => {
      state.plan = (JSON.parse(req.body) as { plan: string }).plan;
      return { body: { zone_id: 2, plan: state.plan } };
    },
  });
  api.configure({ baseUrl: server.url });
});
afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const rowOf = (flag: string) => screen.getByText(flag).closest('tr')!;

describe('feature flags in Global setup › Settings', () => {
  it('switches a flag for the account, then overrides it for one zone', async () => {
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <FeatureFlagsPanel
              accountId={1}
              zones={[
                { id: 1, name: 'Acme' },
                { id: 2, name: 'Beta' },
              ]}
            />
          ),
        },
      ],
      '/',
    );
    await screen.findByText('remote_control');
    expect(within(rowOf('remote_control')).getByLabelText('remote_control: Off')).toBeInTheDocument();
    await userEvent.click(within(rowOf('remote_control')).getByText(T.on));
    await waitFor(() =>
      expect(puts('/api/accounts/1/flags').map((r) => JSON.parse(r.body))).toEqual([{ remote_control: true }]),
    );
    // The table may be drawn anew (or wait for a zone's flags): each look finds the row again.
    await waitFor(() =>
      expect(within(rowOf('remote_control')).getByLabelText('remote_control: On')).toBeInTheDocument(),
    );

    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.scope }), 'Beta');
    await waitFor(() => expect(within(rowOf('remote_control')).getByText(T.inheritAccount)).toBeInTheDocument());
    await userEvent.click(within(rowOf('remote_control')).getByText(T.inheritAccount));
    await userEvent.click(within(rowOf('remote_control')).getByText(T.off));
    await waitFor(() =>
      expect(puts('/api/accounts/1/zones/2/flags').map((r) => JSON.parse(r.body))).toEqual([{ remote_control: false }]),
    );
    await waitFor(() =>
      expect(within(rowOf('remote_control')).getByLabelText('remote_control: Off')).toBeInTheDocument(),
    );

    await userEvent.selectOptions(await screen.findByRole('combobox', { name: new RegExp(`^${T.plan}`) }), 'Basic');
    await waitFor(() =>
      expect(puts('/api/accounts/1/zones/2/plan').map((r) => JSON.parse(r.body))).toEqual([{ plan: 'patch' }]),
    );
  });
});
