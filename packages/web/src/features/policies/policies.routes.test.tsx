import type { Profile } from '@patchwell/core/auth/profile.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { recordedEvents } from '../../app/analytics';
import { queryClient } from '../../app/query-client';
import { routerOptions, routes } from '../../app/routes';
import { buildProfile, buildZone } from '../../test/factories';
import { renderRoutes } from '../../test/render';
import { startTestServer } from '../../test/server';
import { MANAGE_TEXTS } from '../manage/manage.texts';
import { WORKLET_TEXTS } from '../worklets/worklets.texts';
import { buildPolicy } from './policies.factories';
import { POLICY_TEXTS as T } from './policies.texts';

const state: { profile: Profile } = { profile: buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme' })] }) };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/is-authenticated': () => ({ body: true }),
    'GET /api/users/self': () => ({ body: state.profile }),
    'GET /api/banners': () => ({ body: [] }),
    'GET /api/servergroups': () => ({ body: [] }),
    'GET /api/policies': () => ({ body: { data: [], size: 0 } }),
    'GET /api/policystats': () => ({ body: [] }),
    'GET /api/policies/5': () => ({ body: buildPolicy({ id: 5, name: 'Legacy worklet' }) }),
    'GET /api/worklet-catalog': () => ({ body: { results: [], size: 0 } }),
    'GET /api/policy-manual-approval': () => ({ body: { data: [], size: 0 } }),
    'GET /api/info': () => ({
      body: {
        server_url: 'https://patchwell.example',
        access_key: 'zone-key',
        install: { linux: 'linux-cmd', mac: 'curl -fsSL https://patchwell.example/agent.sh | sudo sh', windows: 'win' },
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
  queryClient.clear();
  state.profile = buildProfile({ orgs: [buildZone({ id: 1, name: 'Acme' })] });
});

const open = (entry: string) => renderRoutes(routes, entry, queryClient, routerOptions);
const at = (router: ReturnType<typeof open>['router']) => router.state.location.pathname + router.state.location.search;
const settle = (router: ReturnType<typeof open>['router'], expected: string) =>
  waitFor(() => expect(at(router)).toBe(expected), { timeout: 5000 });

describe('policy routes', () => {
  it.each([
    ['/policy-custom-editor?pid=5&o=1', '/manage/policies/5?o=1'],
    ['/policy-patch-editor?pid=5&o=1', '/manage/policies/5?o=1'],
    ['/policy-required-software-editor?pid=5&o=1', '/manage/policies/5?o=1'],
    ['/policy-required-software-editor?o=1', '/manage/policies/create?o=1'],
    ['/system-management?o=1', '/manage/policies?o=1'],
    ['/manage/community-worklets?o=1', '/manage/worklet-catalog?o=1'],
  ])('redirect %s to %s', async (from, to) => {
    const { router } = open(from);
    await settle(router, to);
    expect(recordedEvents()).toContainEqual(expect.objectContaining({ type: 'deprecated_route', from, to }));
  });

  it('open the policy a legacy editor link names', async () => {
    open('/policy-custom-editor?pid=5&o=1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Legacy worklet' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('keep /manage/maintenance-windows when its flag is on', async () => {
    state.profile = buildProfile({
      orgs: [buildZone({ id: 1, name: 'Acme' })],
      features: { ...FEATURE_FLAGS, maintenance_windows: true },
    });
    const { router } = open('/manage/maintenance-windows?o=1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Maintenance Windows' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(at(router)).toBe('/manage/maintenance-windows?o=1');
  });

  it.each([
    ['/manage/policies?o=1', T.title],
    ['/manage/worklet-catalog?o=1', WORKLET_TEXTS.title],
    ['/policy-manual-approval?o=1', T.approvalsTitle],
    ['/manage/get-started-mac-os?o=1', MANAGE_TEXTS.macTitle],
  ])('render %s titled %s', async (path, title) => {
    open(path);
    expect(await screen.findByRole('heading', { level: 1, name: title }, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} · Patchwell`));
  });

  it('show the macOS install command on the macOS guide, linked from /manage', async () => {
    const { router } = open('/manage?o=1');
    const card = await screen.findByRole(
      'link',
      { name: `${MANAGE_TEXTS.macCardButton}: ${MANAGE_TEXTS.macCardLabel}` },
      { timeout: 10_000 },
    );
    card.click();
    await settle(router, '/manage/get-started-mac-os?o=1');
    expect(await screen.findByText('curl -fsSL https://patchwell.example/agent.sh | sudo sh')).toBeInTheDocument();
  });
});
