import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { buildProfile } from '../../../test/factories';
import { renderInShell } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { POLL_MS } from '../policies.api';
import { DevicePolicies } from './DevicePolicies';

// A run on the device is under way: its result arrives on the page without a reload (issue 10, defect 10).
const device = { done: false };

const standing = (status: 'in_progress' | 'success') => ({
  policy_id: 3,
  policy_name: 'Nightly patches',
  policy_type_name: 'patch',
  compliance: status === 'success' ? 'compliant' : 'pending',
  status: status === 'success' ? 1 : 2,
  reason: status === 'success' ? 'Up to date.' : 'A run of Nightly patches is in progress.',
  next_run_time: null,
  evaluation_exit_code: null,
  last_run_at: '2026-11-21T10:00:00Z',
  result: {
    id: 1,
    run_id: 9,
    policy_id: 3,
    server_id: 11,
    server_name: 'web-1',
    status,
    patches: ['openssl'],
    exit_code: status === 'success' ? 0 : null,
    stdout_tail: null,
    stderr_tail: null,
    create_time: '2026-11-21T10:00:00Z',
    finished_at: status === 'success' ? '2026-11-21T10:00:05Z' : null,
    simulated: false,
    command_id: 4,
    command_type: 'install_updates',
    message: null,
    queued_at: '2026-11-21T10:00:00Z',
  },
});

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servers/11/policies': () => ({
      body: { data: [standing(device.done ? 'success' : 'in_progress')], size: 1 },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

describe('device policies while a run is open', () => {
  it('refresh by themselves until the result is final', async () => {
    renderInShell([{ path: '/devices/:id', element: <DevicePolicies zoneId={1} deviceId={11} /> }], '/devices/11?o=1', {
      profile: buildProfile(),
    });
    const row = await screen.findByRole('button', { name: /Nightly patches/ });
    expect(within(row).getByText('In progress')).toBeInTheDocument();
    device.done = true;
    await waitFor(
      () =>
        expect(
          within(screen.getByRole('button', { name: /Nightly patches/ })).getByText('Success'),
        ).toBeInTheDocument(),
      {
        timeout: 3 * POLL_MS,
      },
    );
  });
});
