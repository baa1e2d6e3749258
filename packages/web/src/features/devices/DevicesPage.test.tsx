import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildDevice, buildGroup, buildProfile } from '../../test/factories';
import { renderInShell, testQueryClient } from '../../test/render';
import { startTestServer } from '../../test/server';
import { DevicesPage } from './DevicesPage';
import { devicesLoader } from './devices.loader';
import { WINDOW_FROM_ROWS } from '../../ui/table/useVirtualRows';

const T = CONSOLE_TEXTS.devices;
// Each test renders the page and walks menus and dialogs; on a loaded CI machine that
// takes longer than vitest's default 5 s per test.
const web = buildDevice({ id: 11, name: 'web-1', display_name: 'web-1', hostname: 'web-1' });
const db = buildDevice({ id: 12, name: 'db-1', display_name: 'db-1', hostname: 'db-1', connected: false });
const state = { devices: [web, db], size: 120 };

let server: Awaited<ReturnType<typeof startTestServer>>;
const listCalls = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/api/servers');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servers': () => ({ body: { data: state.devices, size: state.size } }),
    'GET /api/servergroups': () => ({ body: [buildGroup({ id: 1, name: 'Default', default: true })] }),
    'POST /api/servers/batch': (req) => ({
      body: { affected: (JSON.parse(req.body) as { ids: number[] }).ids.length },
    }),
    'GET /api/info': () => ({
      body: {
        server_url: 'https://patchwell.example',
        access_key: 'zone-key-123',
        install: {
          linux: 'npx patchwell-agent enroll --key zone-key-123',
          mac: 'sudo patchwell-agent enroll --key zone-key-123',
          windows: 'patchwell-agent.exe enroll --key zone-key-123',
        },
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
  server.requests.length = 0;
  state.devices = [web, db];
  state.size = 120;
});

const renderPage = (entry = '/devices?o=1', profile = buildProfile()) =>
  renderInShell([{ path: '/devices', element: <DevicesPage /> }], entry, { profile });

/** The first render loads the page's chunks and two calls: on a loaded machine that takes seconds. */
const loaded = () => screen.findByRole('link', { name: 'web-1' }, { timeout: 10_000 });

const at = (router: ReturnType<typeof renderPage>['router']) => router.state.location.search;

describe('device table', () => {
  it('sends the page zero-based and returns to the first page when a filter changes', async () => {
    const { router } = renderPage('/devices?o=1&page=3');
    await loaded();
    expect(listCalls().at(-1)!.query.get('page')).toBe('2');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: T.osFamily }), 'linux');
    await waitFor(() => expect(listCalls().at(-1)!.query.get('os_family')).toBe('linux'));
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');
    expect(at(router)).toBe('?o=1&os_family=linux');
  });

  it('debounces the search by 200 ms, sends one request for the typed text, and resets the page', async () => {
    const { router } = renderPage('/devices?o=1&page=2');
    await loaded();
    const before = listCalls().length;
    const box = screen.getByRole('searchbox', { name: T.search });
    // Three keystrokes within the same tick (no timer can run between them, however busy
    // the machine): the debounce sends nothing for 'w' or 'we'.
    fireEvent.change(box, { target: { value: 'w' } });
    fireEvent.change(box, { target: { value: 'we' } });
    fireEvent.change(box, { target: { value: 'web' } });
    expect(listCalls().length).toBe(before);
    await waitFor(() => expect(listCalls().at(-1)!.query.get('search')).toBe('web'));
    expect(
      listCalls()
        .filter((r) => r.query.has('search'))
        .map((r) => r.query.get('search')),
    ).toEqual(['web']);
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');
    expect(at(router)).toBe('?o=1&search=web');
  });

  it('clears the filters and the search box together', async () => {
    // The clock is the test's: time passes as usual, and the test moves it past the debounce.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { router } = renderPage('/devices?o=1&search=web&status=online');
    await loaded();
    expect(screen.getByRole('searchbox', { name: T.search })).toHaveValue('web');
    await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.table.clearFilters }));
    await waitFor(() => expect(at(router)).toBe('?o=1'));
    expect(screen.getByRole('searchbox', { name: T.search })).toHaveValue('');
    // The cleared list is asked for (however slow the machine), and the search box's
    // debounce, once past, does not put the old search back.
    await waitFor(() => expect(listCalls().at(-1)!.query.has('search')).toBe(false));
    await vi.advanceTimersByTimeAsync(400);
    expect(at(router)).toBe('?o=1');
    expect(listCalls().at(-1)!.query.has('search')).toBe(false);
  });

  it('returns to the first page when the page size changes, and offers the spec’s sizes', async () => {
    renderPage('/devices?o=1&page=2');
    await loaded();
    const sizes = within(screen.getByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize })).getAllByRole('option');
    expect(sizes.map((o) => o.textContent)).toEqual(['10', '25', '50', '100', '500']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: CONSOLE_TEXTS.table.pageSize }), '100');
    await waitFor(() => expect(listCalls().at(-1)!.query.get('limit')).toBe('100'));
    expect(listCalls().at(-1)!.query.get('page')).toBe('0');
  });

  it('sorts by a column header', async () => {
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: T.lastSeen }));
    await waitFor(() => expect(listCalls().at(-1)!.query.get('sort')).toBe('last_seen_at:asc'));
  });

  it('links the CSV export to the filtered list', async () => {
    renderPage('/devices?o=1&status=offline&tag=prod');
    const link = await screen.findByRole('link', { name: T.exportCsv });
    const href = new URL(link.getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/api/servers/export.csv');
    expect(Object.fromEntries(href.searchParams)).toEqual({ o: '1', status: 'offline', tag: 'prod' });
  });
});

describe('bulk actions', () => {
  it('are enabled by a selection and scan the selected devices after the confirmation', async () => {
    renderPage();
    await loaded();
    const bulk = screen.getByRole('button', { name: T.bulkActions });
    expect(bulk).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSOLE_TEXTS.table.selectRow('db-1') }));
    expect(bulk).toBeEnabled();
    expect(screen.getByText(CONSOLE_TEXTS.table.selected(1))).toBeInTheDocument();

    await userEvent.click(bulk);
    await userEvent.click(await screen.findByRole('menuitem', { name: T.scan }));
    const dialog = await screen.findByRole('dialog', { name: T.scanTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: T.scan }));
    expect(await screen.findByText(T.batchDone(1))).toBeInTheDocument();
    const batch = server.requests.find((r) => r.path === '/api/servers/batch')!;
    expect(batch.query.get('o')).toBe('1');
    expect(JSON.parse(batch.body)).toEqual({ action: 'scan', ids: [12] });
    await waitFor(() => expect(screen.getByRole('button', { name: T.bulkActions })).toBeDisabled());
  });

  it('select every row of the page and apply tags', async () => {
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSOLE_TEXTS.table.selectAll }));
    await userEvent.click(screen.getByRole('button', { name: T.bulkActions }));
    await userEvent.click(await screen.findByRole('menuitem', { name: T.applyTags }));
    const dialog = await screen.findByRole('dialog', { name: T.applyTags });
    await userEvent.click(within(dialog).getByRole('button', { name: T.apply }));
    expect(await within(dialog).findByText('At least one item is required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Tags/ }), 'prod, eu ,prod');
    await userEvent.click(within(dialog).getByRole('button', { name: T.apply }));
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/servers/batch')).toBe(true));
    const batch = server.requests.find((r) => r.path === '/api/servers/batch')!;
    expect(JSON.parse(batch.body)).toEqual({ action: 'tag', ids: [11, 12], tags: ['prod', 'eu'] });
  });

  it('show only the actions the role allows', async () => {
    const manager = buildProfile({ permissions: { '1': ['Endpoint.read', 'Endpoint.manage'] } });
    const first = renderPage('/devices?o=1', manager);
    await loaded();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSOLE_TEXTS.table.selectRow('web-1') }));
    await userEvent.click(screen.getByRole('button', { name: T.bulkActions }));
    expect(await screen.findByRole('menuitem', { name: T.reboot })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: T.remove })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.addDevices })).not.toBeInTheDocument();
    first.unmount();

    renderPage('/devices?o=1', buildProfile({ permissions: { '1': ['Endpoint.read'] } }));
    await loaded();
    expect(screen.queryByRole('button', { name: T.bulkActions })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.exportCsv })).toBeInTheDocument();
  });
});

describe('with its route’s loader', () => {
  it('draws the loader’s rows and groups without asking for them again', async () => {
    const client = testQueryClient();
    renderInShell(
      [{ path: '/devices', element: <DevicesPage />, loader: devicesLoader(client) }],
      '/devices?o=1',
      { profile: buildProfile() },
      client,
    );
    await loaded();
    await waitFor(() => expect(client.isFetching()).toBe(0));
    const asked = (path: string) => server.requests.filter((r) => r.path === path && r.query.get('o') === '1');
    expect(asked('/api/servers')).toHaveLength(1);
    expect(asked('/api/servergroups')).toHaveLength(1);
  });
});

describe('a page of 50 rows', () => {
  it('is rendered whole: as few rows as a screenful are not windowed', async () => {
    state.devices = Array.from({ length: WINDOW_FROM_ROWS }, (_, i) => {
      const name = `node-${String(i).padStart(3, '0')}`;
      return buildDevice({ id: 2000 + i, name, display_name: name, hostname: name });
    });
    state.size = WINDOW_FROM_ROWS;
    renderPage(`/devices?o=1&limit=${WINDOW_FROM_ROWS}`);
    await screen.findByRole('link', { name: 'node-000' }, { timeout: 10_000 });
    const table = screen.getByRole('table', { name: T.tableLabel });
    expect(within(table).getAllByRole('row')).toHaveLength(WINDOW_FROM_ROWS + 1);
    expect(screen.getByRole('link', { name: `node-0${WINDOW_FROM_ROWS - 1}` })).toBeInTheDocument();
    expect(table.querySelector('[data-virtual-spacer]')).toBeNull();
  });
});

describe('a page of 500 rows', () => {
  const fleet = Array.from({ length: 500 }, (_, i) => {
    const name = `node-${String(i).padStart(3, '0')}`;
    return buildDevice({ id: 1000 + i, name, display_name: name, hostname: name });
  });

  it('renders only the rows in view, and the others as the table scrolls', async () => {
    state.devices = fleet;
    state.size = 500;
    renderPage('/devices?o=1&limit=500');
    await screen.findByRole('link', { name: 'node-000' }, { timeout: 10_000 });
    const table = screen.getByRole('table', { name: T.tableLabel });
    expect(table).toHaveAttribute('aria-rowcount', '501');
    // The header row plus a screenful and the overscan: far fewer than 500.
    const rendered = within(table).getAllByRole('row');
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(60);

    // Table.ScrollContainer (the box that scrolls) > its inner wrapper > the table.
    const box = table.parentElement!.parentElement!;
    fireEvent.scroll(box, { target: { scrollTop: 300 * 45 } });
    const row300 = (await screen.findByRole('link', { name: 'node-300' })).closest('tr')!;
    expect(row300).toHaveAttribute('aria-rowindex', '302');
    expect(screen.queryByRole('link', { name: 'node-000' })).not.toBeInTheDocument();
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
  });

  it('keeps the row holding keyboard focus while the table scrolls away from it', async () => {
    state.devices = fleet;
    state.size = 500;
    renderPage('/devices?o=1&limit=500');
    const first = await screen.findByRole(
      'checkbox',
      { name: CONSOLE_TEXTS.table.selectRow('node-000') },
      { timeout: 10_000 },
    );
    const table = screen.getByRole('table', { name: T.tableLabel });
    const box = table.parentElement!.parentElement!;
    first.focus();
    fireEvent.scroll(box, { target: { scrollTop: 300 * 45 } });
    await screen.findByRole('link', { name: 'node-300' });
    expect(first).toBeInTheDocument();
    expect(first).toHaveFocus();
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);

    // Once focus leaves the table, the row is let go like any other.
    screen.getByRole('searchbox', { name: T.search }).focus();
    fireEvent.scroll(box, { target: { scrollTop: 301 * 45 } });
    await waitFor(() => expect(first).not.toBeInTheDocument());
  });
});

describe('row actions', () => {
  const openRowMenu = async (name: string) => {
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: T.rowActions(name) }));
  };
  const batchBody = async () => {
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/servers/batch')).toBe(true));
    return JSON.parse(server.requests.find((r) => r.path === '/api/servers/batch')!.body) as unknown;
  };

  it('reboot one device after a confirmation that names it', async () => {
    renderPage();
    await openRowMenu('db-1');
    await userEvent.click(await screen.findByRole('menuitem', { name: T.reboot }));
    const dialog = await screen.findByRole('dialog', { name: CONSOLE_TEXTS.device.rebootTitle });
    expect(within(dialog).getByText(CONSOLE_TEXTS.device.rebootBody('db-1'))).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: T.reboot }));
    expect(await batchBody()).toEqual({ action: 'reboot', ids: [12] });
    expect(await screen.findByText(T.batchDone(1))).toBeInTheDocument();
  });

  it('assign one device to a group through the shared dialog, leaving the selection alone', async () => {
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSOLE_TEXTS.table.selectRow('db-1') }));
    await openRowMenu('web-1');
    await userEvent.click(await screen.findByRole('menuitem', { name: T.assignGroup }));
    const dialog = await screen.findByRole('dialog', { name: T.assignGroup });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: T.group }), 'Default');
    await userEvent.click(within(dialog).getByRole('button', { name: T.assign }));
    expect(await batchBody()).toEqual({ action: 'group', ids: [11], server_group_id: 1 });
    await screen.findByText(T.batchDone(1));
    expect(screen.getByText(CONSOLE_TEXTS.table.selected(1))).toBeInTheDocument();
  });

  it("export the row through the server's export, narrowed to that device", async () => {
    renderPage();
    await openRowMenu('db-1');
    const item = await screen.findByRole('menuitem', { name: T.exportCsv });
    expect(item).toHaveAttribute('download');
    const href = new URL(item.getAttribute('href')!, 'http://console.test');
    expect(href.pathname).toBe('/api/servers/export.csv');
    expect(href.searchParams.get('o')).toBe('1');
    expect(href.searchParams.getAll('ids[]')).toEqual(['12']);
  });

  it('offer only what the role allows', async () => {
    const first = renderPage(
      '/devices?o=1',
      buildProfile({ permissions: { '1': ['Endpoint.read', 'Endpoint.manage'] } }),
    );
    await openRowMenu('web-1');
    expect(await screen.findByRole('menuitem', { name: T.scan })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: T.remove })).not.toBeInTheDocument();
    first.unmount();

    renderPage('/devices?o=1', buildProfile({ permissions: { '1': ['Endpoint.read'] } }));
    await openRowMenu('web-1');
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual([T.exportCsv]);
  });
});

describe('adding devices', () => {
  it('shows an empty zone’s empty state, which opens manual import with the key and commands', async () => {
    state.devices = [];
    state.size = 0;
    renderPage();
    expect(await screen.findByText(T.emptyBody)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.manualImport }));
    const dialog = await screen.findByRole('dialog', { name: T.manualTitle });
    expect(await within(dialog).findByDisplayValue('zone-key-123')).toBeInTheDocument();
    expect(within(dialog).getByText('npx patchwell-agent enroll --key zone-key-123')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: T.copyKey })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: T.copyCommand('Windows') })).toBeInTheDocument();
  });

  it('opens the third-party import from the add-devices menu', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: T.addDevices }));
    await userEvent.click(await screen.findByRole('menuitem', { name: T.thirdPartyImport }));
    expect(await screen.findByRole('dialog', { name: T.thirdPartyTitle })).toBeInTheDocument();
  });
});
