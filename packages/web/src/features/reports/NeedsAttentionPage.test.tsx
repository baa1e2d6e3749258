import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { NeedsAttentionPage } from './NeedsAttentionPage';
import { buildNeedsAttentionDevice } from './reports.factories';

const web = buildNeedsAttentionDevice({ id: 11, name: 'web-1' });
const laptop = buildNeedsAttentionDevice({
  id: 12,
  name: 'laptop-2',
  compliance: 'pending',
  compliance_reason: 'Pending: policy Laptops weekly is due to run.',
});

let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = () => server.requests.filter((r) => r.path === '/api/reports/needs-attention');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/reports/needs-attention': (req) => {
      const state = req.query.get('compliance');
      const data = [web, laptop].filter((d) => !state || d.compliance === state);
      return { body: { summary: { total: 2, pending: 1, needs_attention: 1 }, data, size: data.length } };
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
});

const renderPage = (entry = '/reports/needs-attention?o=1') =>
  renderInShell([{ path: '/reports/needs-attention', element: <NeedsAttentionPage /> }], entry, {
    profile: buildProfile(),
  });

describe('the needs-attention report', () => {
  it('lists the devices that are not compliant with the reason for each', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Devices that are not compliant' }, { timeout: 10_000 });
    const row = within(table).getByRole('link', { name: 'laptop-2' }).closest('tr')!;
    expect(within(row).getByText('Pending: policy Laptops weekly is due to run.')).toBeInTheDocument();
    expect(within(row).getByText('Pending')).toBeInTheDocument();
    expect(within(table).getByText(web.compliance_reason)).toBeInTheDocument();
  });

  it('leads each state’s count to its devices, and exports what the table shows', async () => {
    const { router } = renderPage();
    await userEvent.click(await screen.findByRole('link', { name: 'Pending: 1' }, { timeout: 10_000 }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1&compliance=pending'));
    await waitFor(() => expect(calls().at(-1)!.query.get('compliance')).toBe('pending'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'web-1' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/reports/needs-attention/csv?o=1&compliance=pending',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Not compliant: 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?o=1'));
  });
});
