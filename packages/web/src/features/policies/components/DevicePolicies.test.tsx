import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { buildProfile } from '../../../test/factories';
import { renderInShell } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { POLICY_TEXTS as T } from '../policies.texts';
import { DevicePolicies } from './DevicePolicies';

const renderAt = (deviceId: number, profile = buildProfile()) =>
  renderInShell(
    [{ path: '/devices/:id', element: <DevicePolicies zoneId={1} deviceId={deviceId} /> }],
    `/devices/${deviceId}?o=1`,
    {
      profile,
    },
  );

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servers/11/policies': () => ({
      body: {
        data: [
          {
            policy_id: 3,
            policy_name: 'Firewall on',
            policy_type_name: 'custom',
            compliance: 'needs_attention',
            status: 0,
            reason: 'Needs remediation: policy Firewall on failed.',
            next_run_time: null,
            evaluation_exit_code: 1,
            last_run_at: '2026-11-21T10:00:00Z',
            result: {
              id: 1,
              run_id: 9,
              policy_id: 3,
              server_id: 11,
              server_name: 'web-1',
              status: 'error',
              patches: [],
              exit_code: 2,
              stdout_tail: 'ERROR: ufw not found',
              stderr_tail: null,
              create_time: '2026-11-21T10:00:00Z',
              finished_at: '2026-11-21T10:00:05Z',
              command_id: 4,
              command_type: 'run_script',
              message: null,
              queued_at: '2026-11-21T10:00:00Z',
              simulated: false,
            },
          },
          {
            policy_id: 4,
            policy_name: 'Nightly patches',
            policy_type_name: 'patch',
            compliance: 'compliant',
            status: 1,
            reason: 'Up to date with policy Nightly patches.',
            next_run_time: '2026-11-22T02:00:00Z',
            evaluation_exit_code: null,
            last_run_at: null,
            result: null,
          },
        ],
        size: 2,
      },
    }),
    'POST /api/policies/3/action': () => ({
      status: 202,
      body: {
        run: {
          id: 9,
          policy_id: 3,
          policy_uuid: 'p-3',
          organization_id: 1,
          status: 'queued',
          trigger: 'manual',
          scheduled_for: null,
          created_by: 7,
          create_time: '2026-11-21T10:00:00Z',
          finished_at: null,
          device_count: 1,
          results: { success: 0, in_progress: 0, error: 0, pending: 1, timed_out: 0, canceled: 0 },
          timezone: null,
          queued_at: null,
          error_message: null,
        },
      },
    }),
    'GET /api/servers/12/policies': () => ({ body: { data: [], size: 0 } }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

describe('device policies', () => {
  it('shows each policy’s standing and the last result with its output', async () => {
    renderAt(11);
    const firewall = await screen.findByRole('button', { name: /Firewall on/ }, { timeout: 4000 });
    // The family's words for a status with one policy, and why beside them.
    expect(within(firewall).getByText('Needs remediation')).toBeInTheDocument();
    expect(within(firewall).getByText('Needs remediation: policy Firewall on failed.')).toBeInTheDocument();
    expect(within(firewall).getByText('Error')).toBeInTheDocument();
    const nightly = screen.getByRole('button', { name: /Nightly patches/ });
    expect(within(nightly).getByText('Up to date')).toBeInTheDocument();
    expect(within(nightly).getByText('Up to date with policy Nightly patches.')).toBeInTheDocument();
    expect(within(nightly).getByText(T.noResultYet)).toBeInTheDocument();

    await userEvent.click(firewall);
    // The accordion's panel is mounted while closed; it becomes visible when its transition ends.
    await waitFor(() => expect(screen.getByText('ERROR: ufw not found')).toBeVisible());
    expect(screen.getByText(T.evaluationExit(1))).toBeInTheDocument();
    expect(server.requests.find((r) => r.path === '/api/servers/11/policies')!.query.get('o')).toBe('1');
  });

  it('runs one policy on this device only, after a confirmation', async () => {
    renderAt(11);
    await userEvent.click(await screen.findByRole('button', { name: /Firewall on/ }, { timeout: 4000 }));
    await userEvent.click(await screen.findByRole('button', { name: T.runOnDevice }));
    const dialog = await screen.findByRole('dialog', { name: T.runNowTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: T.runNow }));
    expect(await screen.findByText(T.runStarted('Firewall on'))).toBeInTheDocument();
    const post = server.requests.find((r) => r.path === '/api/policies/3/action')!;
    expect(JSON.parse(post.body)).toEqual({ action: 'remediateServer', serverId: 11 });
  });

  it('offers no run without execute on the policy’s type', async () => {
    renderAt(11, buildProfile({ permissions: { '1': ['Endpoint.read', 'CustomPolicy.read', 'PatchPolicy.read'] } }));
    await userEvent.click(await screen.findByRole('button', { name: /Firewall on/ }, { timeout: 4000 }));
    await screen.findByText('ERROR: ufw not found');
    expect(screen.queryByRole('button', { name: T.runOnDevice })).not.toBeInTheDocument();
  });

  it('says when no policy targets the device', async () => {
    renderAt(12);
    expect(await screen.findByText(T.devicePoliciesEmpty, undefined, { timeout: 4000 })).toBeInTheDocument();
  });
});
