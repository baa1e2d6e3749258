import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { DashboardPage } from './DashboardPage';

const T = CONSOLE_TEXTS.dashboard;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/dashboard': () => ({
      body: {
        devices: { total: 40, online: 31, offline: 9, needs_reboot: 4 },
        by_os: [
          { os_family: 'windows', count: 22 },
          { os_family: 'linux', count: 18 },
        ],
        compliance: { compliant: 25, pending: 10, needs_attention: 5 },
        patches: { pending: 230, critical: 12, high: 41 },
      },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

describe('dashboard', () => {
  it('shows device counts by status, OS and compliance, and pending patches', async () => {
    renderInShell([{ path: '/dashboard', element: <DashboardPage /> }], '/dashboard?o=1', {
      profile: buildProfile(),
    });
    const offline = await screen.findByRole('link', { name: /Offline/ }, { timeout: 4000 });
    expect(offline).toHaveTextContent('9');
    expect(offline).toHaveAttribute('href', '/devices?o=1&status=offline');
    const byOs = screen.getByRole('region', { name: T.byOs });
    expect(within(byOs).getByRole('link', { name: 'Windows' })).toHaveAttribute(
      'href',
      '/devices?o=1&os_family=windows',
    );
    expect(within(byOs).getByText('22')).toBeInTheDocument();
    const compliance = screen.getByRole('region', { name: T.compliance });
    expect(within(compliance).getByText('Needs attention')).toBeInTheDocument();
    const patches = screen.getByRole('region', { name: T.patches });
    expect(within(patches).getByText('230')).toBeInTheDocument();
    expect(within(patches).getByText('12')).toBeInTheDocument();
  });
});
