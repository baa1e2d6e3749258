import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildDevice, buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { SoftwarePage } from './SoftwarePage';

const T = CONSOLE_TEXTS.software;
let server: Awaited<ReturnType<typeof startTestServer>>;
const listCalls = () => server.requests.filter((r) => r.path === '/api/orgs/1/packages');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/packages': () => ({
      body: {
        data: [
          {
            name: 'openssl',
            os_family: 'linux',
            installed_count: 14,
            versions: ['3.0.11', '3.0.13'],
            needs_update_count: 9,
            severity: 'high',
            cves: ['CVE-2024-0727'],
          },
        ],
        size: 60,
      },
    }),
    'GET /api/orgs/1/packages/devices': () => ({
      body: { data: [buildDevice({ id: 77, display_name: 'web-7' })], size: 1 },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

describe('software', () => {
  it('filters by OS, severity and needs-update from the first page, and lists the devices of a package', async () => {
    renderInShell([{ path: '/software', element: <SoftwarePage /> }], '/software?o=1&page=2', {
      profile: buildProfile(),
    });
    const table = await screen.findByRole('table', { name: T.tableLabel }, { timeout: 4000 });
    expect(within(table).getByText('3.0.11, 3.0.13')).toBeInTheDocument();
    expect(within(table).getByText('High')).toBeInTheDocument();
    expect(listCalls().at(-1)!.query.get('page')).toBe('1');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.severity }), 'critical');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.needsUpdate }), 'true');
    await waitFor(() => expect(listCalls().at(-1)!.query.get('needs_update')).toBe('true'));
    expect(listCalls().at(-1)!.query.get('severity')).toBe('critical');
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');

    await userEvent.click(screen.getByRole('button', { name: T.showDevices('openssl') }));
    const devices = await screen.findByRole('list', { name: T.devicesOf('openssl') });
    expect(within(devices).getByRole('link', { name: 'web-7' })).toHaveAttribute('href', '/devices/77?o=1');
    expect(server.requests.find((r) => r.path === '/api/orgs/1/packages/devices')!.query.get('name')).toBe('openssl');
  });
});
