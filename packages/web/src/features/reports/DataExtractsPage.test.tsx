import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, utcDay } from '@patchwell/core/reports/date-range';
import type { DataExtract } from '@patchwell/core/reports/extracts.schema';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { DataExtractsPage } from './DataExtractsPage';
import { buildExtract } from './reports.factories';

const state: { extracts: DataExtract[]; busy: boolean } = { extracts: [], busy: false };

let server: Awaited<ReturnType<typeof startTestServer>>;
const posts = () => server.requests.filter((r) => r.method === 'POST');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/reports/data-extracts': () => ({ body: { data: state.extracts, size: state.extracts.length } }),
    'POST /api/reports/data-extracts': (req) => {
      if (state.busy) {
        return {
          status: 409,
          body: {
            code: 'reports.extracts_busy',
            message: 'This zone already has 3 extracts in progress. Wait for one to finish.',
          },
        };
      }
      const body = JSON.parse(req.body) as Pick<DataExtract, 'kind' | 'preset'>;
      const created = buildExtract({ id: 50, ...body, status: 'queued', progress: 0, row_count: 0, expires_at: null });
      state.extracts = [created, ...state.extracts];
      return { status: 202, body: created };
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
  state.busy = false;
  state.extracts = [
    buildExtract({ id: 2, kind: 'activity', status: 'running', progress: 40, row_count: 800, expires_at: null }),
    buildExtract({ id: 1 }),
  ];
});

const renderPage = () =>
  renderInShell([{ path: '/reports/data-extracts', element: <DataExtractsPage /> }], '/reports/data-extracts?o=1', {
    profile: buildProfile(),
  });

describe('data extracts', () => {
  it('shows each extract’s progress while it is built, and a download once ready', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Data extracts' }, { timeout: 10_000 });
    expect(within(table).getByRole('progressbar', { name: 'Activity extract: 40%' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Download Patch history extract 1' })).toHaveAttribute(
      'href',
      '/api/reports/data-extracts/1/csv?o=1',
    );
    expect(within(table).queryByRole('link', { name: /extract 2/ })).toBeNull();
    // The list polls while one is in progress: the finished one gets its download.
    state.extracts = [buildExtract({ id: 2, kind: 'activity', row_count: 2000 }), buildExtract({ id: 1 })];
    expect(
      await within(table).findByRole('link', { name: 'Download Activity extract 2' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('requests an extract with a preset, and it appears in the list', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Data extracts' }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Data' }), 'software');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'last30days');
    await userEvent.click(screen.getByRole('button', { name: 'Request Extract' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(posts()[0]!.body)).toEqual({ kind: 'software', preset: 'last30days' });
    expect(posts()[0]!.query.get('o')).toBe('1');
    expect(
      await screen.findByText('Your extract was requested. It appears below when it is ready.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('progressbar', { name: 'Software extract: 0%' })).toBeInTheDocument();
  });

  it('checks a custom range before sending: at most 90 days back, in order', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Data extracts' }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'custom');
    fireEvent.change(screen.getByLabelText(/Start date/), { target: { value: utcDay(addDays(new Date(), -91)) } });
    fireEvent.change(screen.getByLabelText(/End date/), { target: { value: utcDay(new Date()) } });
    await userEvent.click(screen.getByRole('button', { name: 'Request Extract' }));
    expect(await screen.findByText('Must be within the last 90 days.')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    const start = utcDay(addDays(new Date(), -20));
    const end = utcDay(addDays(new Date(), -10));
    fireEvent.change(screen.getByLabelText(/Start date/), { target: { value: start } });
    fireEvent.change(screen.getByLabelText(/End date/), { target: { value: end } });
    await userEvent.click(screen.getByRole('button', { name: 'Request Extract' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(posts()[0]!.body)).toEqual({
      kind: 'patch_history',
      preset: 'custom',
      startDate: start,
      endDate: end,
    });
  });

  it('says why the server refused a request', async () => {
    state.busy = true;
    renderPage();
    await screen.findByRole('table', { name: 'Data extracts' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Request Extract' }));
    expect(
      await screen.findByText('Error: This zone already has 3 extracts in progress. Wait for one to finish.'),
    ).toBeInTheDocument();
  });
});
