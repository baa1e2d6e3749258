import type { Profile } from '@patchwell/core/auth/profile.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { queryClient } from '../../app/query-client';
import { routerOptions, routes } from '../../app/routes';
import { buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { mainNavItems } from '../shell/nav-items';
import { REMEDIATION_TEXTS } from '../remediations/remediations.texts';
import { buildCveDetail } from './remediation.factories';
import { TASK_TEXTS as T } from './tasks.texts';

const acme = buildZone({ id: 1, name: 'Acme' });
const avrOff = { ...FEATURE_FLAGS, automated_vulnerability_remediation: false };
/** Role 4, the Zone Operator (formerly patch administrator): Task rights, but not an administrator. */
const operator = (features = avrOff) =>
  buildProfile({
    orgs: [acme],
    features,
    rbac_roles: [{ id: 4, name: 'Zone Operator', organization_id: 1 }],
    permissions: { '1': [...ROLE_GRANTS[4]] },
  });

const state: { profile: Profile } = { profile: buildProfile({ orgs: [acme] }) };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  const empty = () => ({ body: { data: [], size: 0 } });
  server = await startTestServer({
    'GET /api/users/is-authenticated': () => ({ body: true }),
    'GET /api/users/self': () => ({ body: state.profile }),
    'GET /api/banners': () => ({ body: [] }),
    'GET /api/orgs/1/tasks': empty,
    'GET /api/orgs/1/tasks/batches': empty,
    'GET /api/orgs/1/cves': empty,
    'GET /api/orgs/1/cves/summary': () => ({
      body: {
        open_cves: 0,
        affected_devices: 0,
        overdue: { critical: 0, high: 0, medium: 0, low: 0, none: 0 },
        overdue_total: 0,
      },
    }),
    'GET /api/orgs/1/remediation-deadlines': () => ({ body: { critical: 15, high: 30, medium: 90, low: null } }),
    'GET /api/orgs/1/cves/CVE-2024-3094': () => ({ body: buildCveDetail() }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  queryClient.clear();
  state.profile = buildProfile({ orgs: [acme] });
});

const open = (entry: string) => renderRoutes(routes, entry, queryClient, routerOptions);
const at = (router: ReturnType<typeof open>['router']) => router.state.location.pathname + router.state.location.search;
const settle = (router: ReturnType<typeof open>['router'], expected: string) =>
  waitFor(() => expect(at(router)).toBe(expected), { timeout: 5000 });

describe('remediation routes', () => {
  it('open the tasks list for an administrator while automated remediation is off', async () => {
    state.profile = buildProfile({ orgs: [acme], features: avrOff });
    const { router } = open('/manage/tasks?o=1');
    expect(await screen.findByRole('heading', { level: 1, name: T.title }, { timeout: 10_000 })).toBeInTheDocument();
    expect(at(router)).toBe('/manage/tasks?o=1');
  });

  it('send a user who is not an administrator from the tasks list to the fallback, and the nav to the batches', async () => {
    state.profile = operator();
    const { router } = open('/manage/tasks?o=1');
    await settle(router, '/manage?o=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'System' })).toBeInTheDocument();
    const manage = mainNavItems(state.profile, 1).find((i) => i.children)!;
    expect(manage.children![2]).toEqual({ label: 'Tasks', to: '/manage/tasks/batches?o=1' });
  });

  it('let that user review task batches', async () => {
    state.profile = operator();
    const { router } = open('/manage/tasks/batches?o=1');
    expect(
      await screen.findByRole('heading', { level: 1, name: T.batchesTitle }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(at(router)).toBe('/manage/tasks/batches?o=1');
  });

  it('send everyone from the tasks list to /manage while automated remediation is on', async () => {
    const { router } = open('/manage/tasks?o=1');
    await settle(router, '/manage?o=1');
  });

  it('open the remediations view while automated remediation is on (the default)', async () => {
    open('/manage/remediations?o=1');
    expect(
      await screen.findByRole('heading', { level: 1, name: REMEDIATION_TEXTS.title }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('fall back to /manage from the remediations view and a CVE while automated remediation is off', async () => {
    state.profile = buildProfile({ orgs: [acme], features: avrOff });
    const first = open('/manage/remediations?o=1');
    await settle(first.router, '/manage?o=1');
    first.unmount();
    const second = open('/manage/remediations/cves/CVE-2024-3094?o=1');
    await settle(second.router, '/manage?o=1');
  });

  it('open a CVE’s page, putting the zone in the URL', async () => {
    const { router } = open('/manage/remediations/cves/CVE-2024-3094');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'CVE-2024-3094' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(at(router)).toBe('/manage/remediations/cves/CVE-2024-3094?o=1');
  });
});
