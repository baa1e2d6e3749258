import type { Approval } from '@patchwell/core/policies/policy-runs.schema';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { ManualApprovalPage } from './ManualApprovalPage';
import { POLICY_TEXTS as T } from './policies.texts';

function approval(id: number, name: string, version: string): Approval {
  return {
    id,
    manual_approval: null,
    manual_approval_time: null,
    status: 'pending',
    software: { id, software_version_id: id, display_name: name, version, os_family: 'linux', cves: ['CVE-2026-0001'] },
    policy: { id: 4, name: 'Approve first' },
    server_count: 2,
  };
}

const state = { pending: [approval(1, 'openssl', '3.0.15'), approval(2, 'curl', '8.9.1')] };
let server: Awaited<ReturnType<typeof startTestServer>>;
const puts = () => server.requests.filter((r) => r.method === 'PUT');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/policy-manual-approval': () => ({
      body: {
        data: [
          { policy_id: 4, policy_name: 'Approve first', pending: state.pending },
          { policy_id: 5, policy_name: 'Nothing waiting', pending: [] },
        ],
        size: 2,
      },
    }),
    'PUT /api/approvals/1': (req) => {
      state.pending = state.pending.filter((a) => a.id !== 1);
      const approved = (JSON.parse(req.body) as { manual_approval: boolean }).manual_approval;
      return { body: { ...approval(1, 'openssl', '3.0.15'), manual_approval: approved, status: 'approved' } };
    },
    'PUT /api/approvals/2': () => {
      state.pending = state.pending.filter((a) => a.id !== 2);
      return { body: { ...approval(2, 'curl', '8.9.1'), manual_approval: false, status: 'rejected' } };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.pending = [approval(1, 'openssl', '3.0.15'), approval(2, 'curl', '8.9.1')];
});

const renderPage = (profile = buildProfile()) =>
  renderInShell([{ path: '/policy-manual-approval', element: <ManualApprovalPage /> }], '/policy-manual-approval?o=1', {
    profile,
  });

describe('manual approval', () => {
  it('lists waiting patches per policy, approves and rejects them', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Approve first' }, { timeout: 4000 });
    expect(within(table).getByText('openssl')).toBeInTheDocument();
    expect(within(table).getByText('3.0.15')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Nothing waiting' })).not.toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: `${T.approve} openssl` }));
    expect(await screen.findByText(T.approved('openssl 3.0.15'))).toBeInTheDocument();
    expect(JSON.parse(puts()[0]!.body)).toEqual({ manual_approval: true });
    expect(puts()[0]!.query.get('o')).toBe('1');
    await waitFor(() => expect(within(table).queryByText('openssl')).not.toBeInTheDocument());

    await userEvent.click(within(table).getByRole('button', { name: `${T.reject} curl` }));
    expect(await screen.findByText(T.rejected('curl 8.9.1'))).toBeInTheDocument();
    expect(JSON.parse(puts()[1]!.body)).toEqual({ manual_approval: false });
    expect(await screen.findByText(T.approvalsEmpty)).toBeInTheDocument();
  });

  it('shows no decision buttons without Approval.create', async () => {
    renderPage(buildProfile({ permissions: { '1': ['PatchPolicy.read'] } }));
    const table = await screen.findByRole('table', { name: 'Approve first' }, { timeout: 4000 });
    expect(within(table).queryByRole('button', { name: `${T.approve} openssl` })).not.toBeInTheDocument();
  });
});
