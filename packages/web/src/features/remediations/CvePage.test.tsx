import { CVE_EXCEPTION_KIND_LABELS, type CveDetail } from '@patchwell/core/remediation/cves.schema';
import { TEXTS } from '@patchwell/core/texts';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { buildCveDetail, buildCveDevice, buildCveException } from '../tasks/remediation.factories';
import { CvePage } from './CvePage';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

const detail = buildCveDetail({
  devices: [
    buildCveDevice(),
    buildCveDevice({
      device_id: 12,
      hostname: 'db-1',
      status: 'excepted',
      overdue: false,
      installed: null,
      fix: { kind: 'worklet', name: 'Remove xz backdoor', version: null, source: 'xz-rollback' },
      exception: buildCveException({ id: 5 }),
      findings: [
        {
          batch_id: 41,
          source: 'tenable',
          file_name: 'tenable-nov.csv',
          line: 7,
          scanned_host: '10.0.0.12',
          matched_by: 'ip',
          severity_raw: 'Critical',
          cvss: null,
          seen_at: '2026-11-02T00:00:00Z',
        },
      ],
    }),
  ],
  exceptions: [
    buildCveException({ id: 5 }),
    buildCveException({
      id: 6,
      reason: 'Scanner noise before the rebuild.',
      revoked_at: '2026-11-10T00:00:00Z',
      revoked_by_user: { id: 8, email: 'grace@example.com' },
      state: 'revoked',
      hostname: null,
      device_id: null,
    }),
  ],
});
const state: { detail: CveDetail } = { detail };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/cves/CVE-2024-3094': () => ({ body: state.detail }),
    'POST /api/orgs/1/cves/CVE-2024-3094/exceptions': (req) => ({
      status: 201,
      body: buildCveException({ id: 9, ...(JSON.parse(req.body) as object) }),
    }),
    'DELETE /api/orgs/1/cve-exceptions/5': () => ({ status: 204 }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.detail = detail;
});

const open = (profile = buildProfile()) =>
  renderInShell(
    [{ path: '/manage/remediations/cves/:cve', element: <CvePage /> }],
    '/manage/remediations/cves/CVE-2024-3094?o=1',
    {
      profile,
    },
  );
const devicesTable = () => screen.findByRole('table', { name: T.devicesLabel }, { timeout: 10_000 });

describe('CVE page', () => {
  it('explains why each device matched: the scanner row, the installed package, and the fix with its source', async () => {
    open();
    const table = await devicesTable();
    const web = within(table).getByRole('row', { name: /web-1/ });
    expect(web).toHaveTextContent(T.scannerRow('Qualys', 'scan-40.csv', 2));
    expect(web).toHaveTextContent(T.scannedHost('web-1.corp.example', 'FQDN'));
    expect(web).toHaveTextContent(T.installed('xz-utils', '5.6.0-0.2'));
    expect(web).toHaveTextContent(T.fixPatch('xz-utils', '5.6.1+really5.4.5-1', 'apt'));
    expect(web).toHaveTextContent('Open');
    expect(web).toHaveTextContent(T.overdue);
    const db = within(table).getByRole('row', { name: /db-1/ });
    expect(db).toHaveTextContent(T.scannerRow('Tenable', 'tenable-nov.csv', 7));
    expect(db).toHaveTextContent(T.scannedHost('10.0.0.12', 'IP address'));
    expect(db).toHaveTextContent(T.fixWorklet('Remove xz backdoor', 'xz-rollback'));
    expect(db).toHaveTextContent(CVE_EXCEPTION_KIND_LABELS.risk_accepted);
    expect(db).toHaveTextContent('Excepted');
  });

  it('shows the fix status over time as a described chart and a table', async () => {
    open();
    await devicesTable();
    expect(screen.getByRole('img', { name: T.historyChart('2026-11-18', '2026-11-20', 1, 1) })).toBeInTheDocument();
    const history = screen.getByRole('table', { name: T.historyLabel });
    expect(within(history).getAllByRole('row')[1]).toHaveTextContent('2026-11-20');
  });

  it('lists the exceptions with who decided, and revokes an active one after confirmation', async () => {
    open();
    const table = await screen.findByRole('table', { name: T.exceptionsLabel }, { timeout: 10_000 });
    const active = within(table).getByRole('row', { name: /Isolated lab machine/ });
    const rows = within(table).getAllByRole('row');
    expect(rows[2]).toHaveTextContent(T.states.revoked!);
    expect(rows[2]).toHaveTextContent(T.wholeZone);
    expect(rows[2]).toHaveTextContent(T.revokedBy('grace@example.com', '2026-11-10 12:00 AM UTC'));
    expect(active).toHaveTextContent('ada@example.com');
    await userEvent.click(within(active).getByRole('button', { name: T.revokeFor('db-1') }));
    const dialog = await screen.findByRole('dialog', { name: T.revokeTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: T.revoke }));
    expect(await screen.findByText(T.revokedDone)).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'DELETE' && r.path === '/api/orgs/1/cve-exceptions/5')).toBe(true);
  });

  it('checks the exception form: a reason is required, the expiry a real day in the future', async () => {
    open();
    const table = await devicesTable();
    await userEvent.click(within(table).getByRole('button', { name: T.markExceptionFor('web-1') }));
    const dialog = await screen.findByRole('dialog', { name: T.exceptionTitle('CVE-2024-3094') });
    expect(within(dialog).getByRole('combobox', { name: T.scope })).toHaveValue('11');

    const expires = within(dialog).getByRole('textbox', { name: T.expires });
    await userEvent.type(expires, '2026-02-30');
    await userEvent.click(within(dialog).getByRole('button', { name: T.saveException }));
    expect(await within(dialog).findByText(TEXTS.validation.required)).toBeInTheDocument();
    expect(within(dialog).getByText(T.expiryInvalid)).toBeInTheDocument();

    await userEvent.clear(expires);
    await userEvent.type(expires, '2020-01-01');
    await userEvent.click(within(dialog).getByRole('button', { name: T.saveException }));
    expect(await within(dialog).findByText(T.expiryInPast)).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('records a false positive for one device, or an accepted risk for the zone, with reason and expiry', async () => {
    open();
    const table = await devicesTable();
    await userEvent.click(within(table).getByRole('button', { name: T.markExceptionFor('web-1') }));
    let dialog = await screen.findByRole('dialog', { name: T.exceptionTitle('CVE-2024-3094') });
    await userEvent.type(within(dialog).getByRole('textbox', { name: T.reason }), 'The package is not loaded.');
    await userEvent.type(within(dialog).getByRole('textbox', { name: T.expires }), '2099-06-30');
    await userEvent.click(within(dialog).getByRole('button', { name: T.saveException }));
    expect(await screen.findByText(T.exceptionSaved)).toBeInTheDocument();
    const first = server.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(JSON.parse(first.body)).toEqual({
      kind: 'false_positive',
      reason: 'The package is not loaded.',
      device_id: 11,
      expires_at: '2099-06-30T23:59:59Z',
    });

    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.exceptionTitle('CVE-2024-3094') })).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: T.addException }));
    dialog = await screen.findByRole('dialog', { name: T.exceptionTitle('CVE-2024-3094') });
    await userEvent.click(within(dialog).getByRole('radio', { name: CVE_EXCEPTION_KIND_LABELS.risk_accepted }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: T.reason }), 'Vendor fix next quarter.');
    await userEvent.click(within(dialog).getByRole('button', { name: T.saveException }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    expect(JSON.parse(server.requests.filter((r) => r.method === 'POST').at(-1)!.body)).toEqual({
      kind: 'risk_accepted',
      reason: 'Vendor fix next quarter.',
    });
  });

  it('pages through a CVE’s devices', async () => {
    state.detail = { ...detail, devices_size: 60 };
    open();
    await devicesTable();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() =>
      expect(
        server.requests
          .filter((r) => r.path === '/api/orgs/1/cves/CVE-2024-3094')
          .at(-1)!
          .query.get('page'),
      ).toBe('2'),
    );
  });

  it('offers no exception changes without Task.modify', async () => {
    open(buildProfile({ permissions: { '1': [...ROLE_GRANTS[2]] } }));
    await devicesTable();
    expect(screen.queryByRole('button', { name: T.addException })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.markExceptionFor('web-1') })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.revokeFor('db-1') })).not.toBeInTheDocument();
  });
});
