import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  HOST_IMPORT_MAX_BYTES,
  type HostImport,
  type HostImportResult,
  type HostImportRow,
} from '@patchwell/core/devices/host-imports.schema';
import { api } from '../../../api/client';
import { CONSOLE_TEXTS } from '../../../texts';
import { renderAt } from '../../../test/render';
import { startTestServer, type TestRequest } from '../../../test/server';
import { AddDevicesMenu } from '../components/AddDevicesMenu';
import { IMPORT_TEXTS as T } from './import.texts';

// Opening menus and dialogs and reading a file take several renders each.

const row = (line: number, overrides: Partial<HostImportRow>): HostImportRow => ({
  line,
  hostname: `host-${line}`,
  ip_addrs: [],
  os_family: 'linux',
  server_group_id: null,
  group_name: '',
  tags: [],
  serial: '',
  notes: '',
  status: 'new',
  errors: [],
  warnings: [],
  device_id: null,
  ...overrides,
});

const ROWS: HostImportRow[] = [
  row(2, { hostname: 'web01.corp.example', group_name: 'Servers', server_group_id: 4, tags: ['web', 'dmz'] }),
  row(3, { hostname: 'finance-pc', os_family: 'windows' }),
  row(4, { hostname: 'bad host', status: 'error', errors: ['Host name may hold only letters.'] }),
];
const resultOf = (isDryRun: boolean): HostImportResult => ({
  dry_run: isDryRun,
  rows: ROWS,
  summary: { total: 3, new: 2, matches_device: 0, duplicate: 0, error: 1, imported: isDryRun ? 0 : 2 },
  ignored_columns: ['Owner'],
});
const awaitingRow = (id: number, hostname: string): HostImport => ({
  id,
  hostname,
  ip_addrs: [],
  os_family: 'linux',
  server_group_id: null,
  group_name: null,
  tags: ['web'],
  serial: '',
  notes: '',
  imported_by: 1,
  imported_at: '2026-11-21T10:00:00.000Z',
  status: 'awaiting_agent',
  enrolled_device_id: null,
  enrolled_at: null,
});

const state = { awaiting: [] as HostImport[], importStatus: 200, importBody: null as unknown };
let server: Awaited<ReturnType<typeof startTestServer>>;
const uploads = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/servers/imports');

beforeAll(async () => {
  server = await startTestServer({
    'POST /api/servers/imports': (req: TestRequest) => {
      const isDryRun = req.query.get('dry_run') === 'true';
      if (state.importBody) return { status: state.importStatus, body: state.importBody };
      if (!isDryRun) state.awaiting = [awaitingRow(7, 'web01.corp.example'), awaitingRow(8, 'finance-pc')];
      return { status: isDryRun ? 200 : 201, body: resultOf(isDryRun) };
    },
    'GET /api/servers/imports': () => ({ body: { data: state.awaiting, size: state.awaiting.length } }),
    'DELETE /api/servers/imports/7': () => {
      state.awaiting = state.awaiting.filter((a) => a.id !== 7);
      return { status: 204 };
    },
    'GET /api/info': () => ({
      body: {
        server_url: 'https://patchwell.example',
        access_key: null,
        install: { linux: 'x', mac: 'y', windows: 'z' },
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
  state.awaiting = [];
  state.importBody = null;
});

const CSV = 'hostname,group,tags,Owner\nweb01.corp.example,Servers,web;dmz,al\nfinance-pc,,,\nbad host,,,\n';

/** Renders the menu and opens Third-party import. */
async function openDialog() {
  renderAt(<AddDevicesMenu zoneId={1} isManualOpen={false} onManualOpen={() => undefined} />);
  await userEvent.click(screen.getByRole('button', { name: CONSOLE_TEXTS.devices.addDevices }));
  await userEvent.click(await screen.findByRole('menuitem', { name: CONSOLE_TEXTS.devices.thirdPartyImport }));
  return screen.findByRole('dialog', { name: T.title });
}

const fileInputOf = (dialog: HTMLElement) =>
  dialog.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('third-party import', () => {
  it('offers the template, checks the chosen file without importing, and shows each row’s fate', async () => {
    const dialog = await openDialog();
    const template = within(dialog).getByRole('link', { name: T.template });
    expect(template).toHaveAttribute('download', T.templateFileName);
    expect(decodeURIComponent(template.getAttribute('href')!)).toContain('hostname,ip,os,group,tags,serial,notes');
    expect(within(dialog).getByRole('button', { name: T.submitIdle })).toBeDisabled();

    await userEvent.upload(fileInputOf(dialog), new File([CSV], 'hosts.csv', { type: 'text/csv' }));
    const table = await within(dialog).findByRole('table', { name: T.table.caption });
    expect(uploads()).toHaveLength(1);
    expect(uploads()[0]!.query.get('dry_run')).toBe('true');
    expect(uploads()[0]!.query.get('o')).toBe('1');
    expect(uploads()[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(uploads()[0]!.body).toContain(CSV);

    expect(within(dialog).getByText(T.summary.new(2))).toBeInTheDocument();
    expect(within(dialog).getByText(T.summary.error(1))).toBeInTheDocument();
    expect(within(dialog).getByText(T.ignoredColumns(['Owner']))).toBeInTheDocument();
    const bad = within(table).getByRole('row', { name: /bad host/ });
    expect(within(bad).getByText(T.status.error!)).toBeInTheDocument();
    expect(within(bad).getByText('Host name may hold only letters.')).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /web01\.corp\.example/ })).toHaveTextContent('web, dmz');

    await userEvent.click(within(dialog).getByRole('checkbox', { name: T.onlyProblems }));
    expect(within(table).getAllByRole('row')).toHaveLength(2); // the header and the bad row
  });

  it('imports the valid rows, says how many, and lists them as awaiting their agent', async () => {
    const dialog = await openDialog();
    await userEvent.upload(fileInputOf(dialog), new File([CSV], 'hosts.csv', { type: 'text/csv' }));
    await userEvent.click(await within(dialog).findByRole('button', { name: T.submit(2) }));

    expect(await screen.findByText(T.imported(2, 1))).toBeInTheDocument();
    expect(uploads().map((u) => u.query.get('dry_run'))).toEqual(['true', 'false']);
    const awaiting = await within(dialog).findByRole('table', { name: T.awaitingCaption });
    expect(within(awaiting).getByText('finance-pc')).toBeInTheDocument();
    expect(within(dialog).getByRole('tab', { name: T.tabAwaiting(2) })).toHaveAttribute('aria-selected', 'true');
  });

  it('removes an awaiting host after confirmation', async () => {
    state.awaiting = [awaitingRow(7, 'web01.corp.example'), awaitingRow(8, 'finance-pc')];
    const dialog = await openDialog();
    await userEvent.click(await within(dialog).findByRole('tab', { name: T.tabAwaiting(2) }));
    await userEvent.click(await within(dialog).findByRole('button', { name: T.remove('web01.corp.example') }));
    const confirm = await screen.findByRole('dialog', { name: T.removeTitle });
    await userEvent.click(within(confirm).getByRole('button', { name: T.removeConfirm }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.method === 'DELETE' && r.path === '/api/servers/imports/7')).toBe(true),
    );
    expect(await screen.findByText(T.removed('web01.corp.example'))).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByText('web01.corp.example')).not.toBeInTheDocument());
  });

  it('refuses a file over 1 MiB before uploading, and shows the server’s reason for a bad file', async () => {
    const dialog = await openDialog();
    const big = new File([new Uint8Array(HOST_IMPORT_MAX_BYTES + 1)], 'big.csv', { type: 'text/csv' });
    await userEvent.upload(fileInputOf(dialog), big);
    expect(await within(dialog).findByText(T.tooLarge)).toBeInTheDocument();
    expect(uploads()).toHaveLength(0);

    state.importStatus = 400;
    state.importBody = { code: 'host_imports.no_hostname_column', message: 'The file has no host name column.' };
    await userEvent.upload(fileInputOf(dialog), new File(['ip\n1.2.3.4\n'], 'ips.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText('The file has no host name column.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: T.submitIdle })).toBeDisabled();
  });
});
