import { parse } from 'csv-parse/sync';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_UPLOAD_MAX_BYTES, BATCH_UPLOAD_MAX_ROWS } from '@patchwell/core/remediation/scanners.schema';
import { TEXTS } from '@patchwell/core/texts';
import { remediationBatches, remediationFindings } from '../../../db/remediation.schema';
import { startTestApp, type TestApp } from '../../../test/app';
import { buildZoneWithKey } from '../../../test/agents';
import type { Caller } from '../../../test/authz-helpers';
import { enrollFleet, FLEET, sampleFile, uploadCsv } from './batches.fixtures';

/**
 * Uploads the importer must refuse whole: each answers 400 (413 over the size limit) with a
 * message naming the line and column, and nothing of it is stored. And the files it must
 * take although they look odd: BOM, CRLF, quoted line breaks, `;` separators, formulas in
 * free-text cells (stored as text; the CSV export neutralises them).
 */

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let o: number;
let admin: Caller;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  o = z.zone.id;
  admin = { cookie: z.cookie };
  await enrollFleet(t, z.accessKey, FLEET.slice(2, 3)); // web-eu-0012
});
afterAll(async () => {
  await t.close();
});

async function storedCounts(zoneId = o) {
  const [batches] = await t.db
    .select({ n: count() })
    .from(remediationBatches)
    .where(eq(remediationBatches.organizationId, zoneId));
  const [findings] = await t.db
    .select({ n: count() })
    .from(remediationFindings)
    .where(eq(remediationFindings.organizationId, zoneId));
  return { batches: batches!.n, findings: findings!.n };
}

const HEADER = 'Hostname,IP,CVE ID,Severity\r\n';
const row = (i: number) => `web-${String(i).padStart(5, '0')},10.9.${(i >> 8) & 255}.${i & 255},CVE-2024-5535,High\r\n`;

describe('POST .../batches/upload refuses what it cannot read, and stores nothing', () => {
  const cases: [
    string,
    () => Promise<{ status: number; body: { code?: string; message?: string } }>,
    number,
    string,
    RegExp,
  ][] = [
    [
      'a Tenable export sent as Qualys (wrong columns)',
      () => uploadCsv(t, admin, o, 'qualys', sampleFile('tenable'), { filename: 'tenable.csv' }),
      400,
      'batches.missing_columns',
      /^Line 1, the header, has no “Severity” \(or Severity Level\) column, which the Qualys format needs/,
    ],
    [
      'a file with none of the provider’s columns',
      () => uploadCsv(t, admin, o, 'rapid7', 'name,notes\nweb-eu-0012,x\n'),
      400,
      'batches.missing_columns',
      /^The file has no “Asset IP Address”.* and no “Vulnerability CVE IDs”.* and no “Vulnerability Severity Level”/,
    ],
    [
      'a binary file',
      () =>
        uploadCsv(t, admin, o, 'generic', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe])),
      400,
      'batches.not_utf8',
      /^Line 1: the file is not UTF-8 text/,
    ],
    [
      'a spreadsheet workbook named .csv',
      () => uploadCsv(t, admin, o, 'generic', Buffer.from('PK\u0003\u0004[Content_Types].xml')),
      400,
      'batches.not_csv',
      /spreadsheet workbook, not CSV/,
    ],
    [
      'text with a NUL character',
      () => uploadCsv(t, admin, o, 'generic', `${HEADER}web-eu-0012,,CVE-2024-5535,High\r\nweb\u0000,,x,y\r\n`),
      400,
      'batches.not_csv',
      /^Line 3 holds a NUL character/,
    ],
    [
      'a formula where a host name belongs',
      () =>
        uploadCsv(
          t,
          admin,
          o,
          'generic',
          `${HEADER}web-eu-0012,,CVE-2024-5535,High\r\n"=cmd|' /C calc'!A0",,CVE-2024-5535,High\r\n`,
        ),
      400,
      'batches.bad_cells',
      /^Line 3, column 1 \(“Hostname”\): “=cmd\|' \/C calc'!A0” looks like a spreadsheet formula, not a host name\.$/,
    ],
    [
      'a formula where a CVE belongs',
      () => uploadCsv(t, admin, o, 'generic', `${HEADER}web-eu-0012,,"@SUM(1+1)*cmd|' /C calc'!A0",High\r\n`),
      400,
      'batches.bad_cells',
      /^Line 2, column 3 \(“CVE ID”\): .* looks like a spreadsheet formula, not a CVE id\./,
    ],
    [
      'a cell that is not a CVE id',
      () => uploadCsv(t, admin, o, 'generic', `${HEADER}web-eu-0012,,CVE-2024-5535 OpenSSL,High\r\n`),
      400,
      'batches.bad_cells',
      /^Line 2, column 3 \(“CVE ID”\): “OpenSSL” is not a CVE id/,
    ],
    [
      'a severity the scanner never writes',
      () =>
        uploadCsv(t, admin, o, 'qualys', '"IP","CVE ID","Severity"\r\n"10.30.0.12","CVE-2024-5535","9"\r\n', {
          filename: 'scan.csv',
        }),
      400,
      'batches.bad_cells',
      /^Line 2, column 3 \(“Severity”\): “9” is not a Qualys severity \(5 critical/,
    ],
    [
      'a row naming no host',
      () => uploadCsv(t, admin, o, 'generic', `${HEADER} , ,CVE-2024-5535,High\r\n`),
      400,
      'batches.bad_cells',
      /^Line 2, column 1 \(“Hostname”\): the row names no host/,
    ],
    [
      `${BATCH_UPLOAD_MAX_ROWS + 1} rows`,
      () =>
        uploadCsv(
          t,
          admin,
          o,
          'generic',
          HEADER + Array.from({ length: BATCH_UPLOAD_MAX_ROWS + 1 }, (_, i) => row(i)).join(''),
        ),
      400,
      'batches.too_many_rows',
      /^Line 20002: the file has more than 20,000 rows\. Split it into smaller files\.$/,
    ],
    [
      'a quote cut off by the end of the file',
      () =>
        uploadCsv(t, admin, o, 'generic', `${HEADER}web-eu-0012,,CVE-2024-5535,High\r\nweb-eu-0012,"10.30.0.12,CVE-`),
      400,
      'batches.bad_csv',
      /^Line 3: a quoted cell opens and never closes \(the file ends at line 3\)/,
    ],
    [
      'a stray quote inside a cell',
      () => uploadCsv(t, admin, o, 'generic', `${HEADER}web-eu-0012,1"0,CVE-2024-5535,High\r\n`),
      400,
      'batches.bad_csv',
      /^Line 2, column 2: a quote inside a cell is not doubled/,
    ],
    [
      'a file over the size limit',
      () =>
        uploadCsv(
          t,
          admin,
          o,
          'generic',
          Buffer.concat([Buffer.from(HEADER), Buffer.alloc(BATCH_UPLOAD_MAX_BYTES, 0x20), Buffer.from(row(1))]),
        ),
      413,
      'batches.too_large',
      /^The file is larger than 32 MiB\. Split it into smaller files\.$/,
    ],
    [
      'a file name with a space',
      () => uploadCsv(t, admin, o, 'generic', sampleFile('generic'), { filename: 'scan results.csv' }),
      400,
      'batches.bad_file_name',
      new RegExp(`^${TEXTS.uploads.fileNameRule.replace(/[.~-]/g, '\\$&')}$`),
    ],
    [
      'a file that is not named or sent as CSV',
      () =>
        uploadCsv(t, admin, o, 'generic', sampleFile('generic'), {
          filename: 'scan.xlsx',
          type: 'application/vnd.ms-excel',
        }),
      400,
      'batches.not_csv',
      /^The file must be a CSV file \(\.csv\)\.$/,
    ],
    [
      'a header with no rows',
      () => uploadCsv(t, admin, o, 'generic', HEADER),
      400,
      'batches.no_findings',
      /^The file has a header but no rows\.$/,
    ],
    [
      'rows without any CVE',
      () => uploadCsv(t, admin, o, 'generic', `${HEADER}web-eu-0012,,,High\r\nweb-eu-0012,,N/A,High\r\n`),
      400,
      'batches.no_findings',
      /^None of the file’s 2 rows names a CVE\.$/,
    ],
    ['an empty file', () => uploadCsv(t, admin, o, 'generic', ''), 400, 'batches.no_findings', /^The file is empty\.$/],
  ];

  it.each(cases)('refuses %s', async (_label, send, status, code, message) => {
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toMatch(message);
    expect(await storedCounts()).toEqual({ batches: 0, findings: 0 });
  });

  it('lists every unreadable cell (up to 20) in `errors.file`', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `web-eu-0012,,CVE-2024-${i},High\r\n`).join('');
    const res = await uploadCsv(t, admin, o, 'generic', HEADER + rows);
    expect(res.status).toBe(400);
    expect(res.body.errors.file).toHaveLength(20);
    expect(res.body.message).toMatch(
      /^Line 2, column 3 \(“CVE ID”\): “CVE-2024-0” is not a CVE id .* \(and 19 more\)$/,
    );
  });

  it('answers a request that is not multipart with 415, and an unknown source with 400', async () => {
    const json = await t.request(`/api/orgs/${o}/tasks/patch/batches/upload?o=${o}&source=generic`, {
      method: 'POST',
      headers: { cookie: z.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const source = await uploadCsv(t, admin, o, 'nessus', sampleFile('generic'));
    expect(source.status).toBe(400);
    expect(await storedCounts()).toEqual({ batches: 0, findings: 0 });
  });
});

describe('POST .../batches/upload takes real-world files', () => {
  it('reads a BOM, CRLF, quoted line breaks, `;` separators and a preamble before the header', async () => {
    const csv =
      '\uFEFFReport;"Weekly ; scan"\r\n' +
      '\r\n' +
      'Hostname;OS;CVE ID;Severity;Title\r\n' +
      'web-eu-0012;Debian 12;"CVE-2024-5535,\r\nCVE-2024-6387";High;"openssl;\nopenssh"\r\n';
    const res = await uploadCsv(t, admin, o, 'generic', csv, { filename: 'semicolons.csv' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.app.batchBuilder.idle();
    const detail = await z.admin.get(`/api/orgs/${o}/tasks/batches/${res.body.id}?o=${o}`);
    expect(detail.body).toMatchObject({ status: 'ready', statistics: { rows: 1, findings: 2 } });
  });

  it('stores formula-like text of free-text cells as text, and the batch CSV neutralises it', async () => {
    const csv =
      'Hostname,CVE ID,Severity,Title,OS\r\n' +
      'web-eu-0012,CVE-2024-5535,Critical,"=HYPERLINK(""http://evil.example"",""open"")",+Debian\r\n' +
      '-lobby-kiosk,CVE-2024-5535,Critical,@SUM(A1),\r\n';
    const res = await uploadCsv(t, admin, o, 'generic', csv, { filename: 'formulas.csv' });
    // A host cell starting with a formula sign is refused, whatever follows.
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^Line 3, column 1 \(“Hostname”\): “-lobby-kiosk” looks like a spreadsheet formula/,
    );

    const ok = await uploadCsv(t, admin, o, 'generic', csv.split('\r\n').slice(0, 2).join('\r\n'), {
      filename: 'formulas.csv',
    });
    expect(ok.status).toBe(202);
    await t.app.batchBuilder.idle();
    const vulns = await z.admin.get(`/api/orgs/${o}/tasks/batches/${ok.body.id}/vulnerabilities?o=${o}`);
    expect(vulns.body.data[0].title).toBe('=HYPERLINK("http://evil.example","open")');
    const res2 = await t.request(`/api/orgs/${o}/tasks/batches/${ok.body.id}/csv?o=${o}`, {
      headers: { cookie: z.cookie },
    });
    expect(res2.headers.get('content-disposition')).toBe(`attachment; filename="formulas-batch-${ok.body.id}.csv"`);
    const [record] = parse(await res2.text(), { columns: true }) as Record<string, string>[];
    expect(record).toMatchObject({ Title: `'=HYPERLINK("http://evil.example","open")`, OS: "'+Debian" });
  });

  it(`takes ${BATCH_UPLOAD_MAX_ROWS.toLocaleString('en-US')} rows`, async () => {
    const before = await storedCounts();
    const res = await uploadCsv(
      t,
      admin,
      o,
      'generic',
      HEADER + Array.from({ length: BATCH_UPLOAD_MAX_ROWS }, (_, i) => row(i)).join(''),
      { filename: 'limit.csv' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.app.batchBuilder.idle();
    const detail = await z.admin.get(`/api/orgs/${o}/tasks/batches/${res.body.id}?o=${o}`);
    expect(detail.body.status).toBe('ready');
    expect(detail.body.statistics).toMatchObject({ rows: 20_000, findings: 20_000, vulnerabilities: 1 });
    expect(detail.body.statistics.issues.unknown_host).toBe(20_000);
    expect((await storedCounts()).findings - before.findings).toBe(20_000);
  });
});
