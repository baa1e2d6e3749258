import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APNS_TEXTS, type ApnsCertificate, type ApnsSettings } from '@patchwell/core/apns/apns.schema';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer, type TestRequest } from '../../test/server';
import { GetStartedMacOsPage } from '../manage/GetStartedMacOsPage';
import { ApnsSettingsPage } from './ApnsSettingsPage';

const acme = buildZone({ id: 1, name: 'Acme' });
const TOPIC = 'com.apple.mgmt.External.1b2c3d4e-0000-4000-8000-123456789abc';
const PASSWORD = 'correct horse';

/** An Apple-like push certificate and its PKCS#12 bundle, made by openssl for the upload. */
let dir: string;
let pem: Buffer;
let p12: Buffer;

const certificate = (over: Partial<ApnsCertificate> = {}): ApnsCertificate => ({
  subject: `UID=${TOPIC}, CN=APSP:1b2c3d4e, C=US`,
  topic: TOPIC,
  serial: '4AF2A431955F925DEF85A9B5132CCBBBABED6AE0',
  issuer: 'CN=Apple Application Integration 2 Certification Authority, O=Apple Inc., C=US',
  valid_from: '2025-03-12T09:00:00.000Z',
  valid_to: '2026-03-12T09:00:00.000Z',
  fingerprint_sha256: 'AA:BB:CC',
  days_left: 9,
  expiring_soon: true,
  expired: false,
  has_private_key: true,
  uploaded_at: '2025-03-12T10:00:00.000Z',
  uploaded_by: 'ada@example.com',
  ...over,
});

let state: ApnsSettings;
let uploads: TestRequest[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'apns-web-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '365'].concat([
      '-subj',
      `/UID=${TOPIC}/CN=APSP:1b2c3d4e/C=US`,
    ]),
    { cwd: dir, stdio: 'ignore' },
  );
  execFileSync(
    'openssl',
    ['pkcs12', '-export', '-in', 'c.pem', '-inkey', 'k.pem', '-out', 'c.p12'].concat(['-passout', `pass:${PASSWORD}`]),
    { cwd: dir, stdio: 'ignore' },
  );
  pem = readFileSync(path.join(dir, 'c.pem'));
  p12 = readFileSync(path.join(dir, 'c.p12'));

  server = await startTestServer({
    'GET /api/apns': () => ({ body: state }),
    'POST /api/apns/csr': () => {
      state = {
        ...state,
        csr: {
          pem: '-----BEGIN CERTIFICATE REQUEST-----\nMIIC\n-----END CERTIFICATE REQUEST-----\n',
          subject: 'CN=Patchwell APNS, O=Patchwell',
          created_at: '2026-03-02T09:00:00.000Z',
          created_by: 'ada@example.com',
          reuses_key: false,
        },
      };
      return { status: 201, body: state };
    },
    'PUT /api/apns/certificate': (req) => {
      uploads.push(req);
      const body = JSON.parse(req.body) as { format: string; data: string; password?: string };
      // The server's answers to a PKCS#12 file, as in modules/apns: the wrong password, then the file.
      if (body.format === 'pkcs12' && body.password !== PASSWORD) {
        return {
          status: 400,
          body: { code: 'validation', message: 'Invalid input.', errors: { password: [APNS_TEXTS.badPassword] } },
        };
      }
      const bytes = body.format === 'pem' ? Buffer.from(body.data) : Buffer.from(body.data, 'base64');
      const expected = body.format === 'pkcs12' ? p12 : pem;
      if (!bytes.equals(expected)) {
        return { status: 400, body: { code: 'validation', errors: { data: [APNS_TEXTS.notCertificate] } } };
      }
      state = {
        csr: null,
        certificate: certificate({ days_left: 364, expiring_soon: false, valid_to: '2027-03-02T09:00:00.000Z' }),
      };
      return { body: state };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  state = { csr: null, certificate: null };
  uploads = [];
});

const flagsOn = () =>
  buildProfile({ orgs: [acme], features: { ...buildProfile().features, configurations_routes: true } });

function renderPage() {
  return renderInShell([{ path: '/settings/apns', element: <ApnsSettingsPage /> }], '/settings/apns?o=1', {
    profile: flagsOn(),
  });
}

const rowValue = (table: HTMLElement, label: string) =>
  within(table).getByRole('rowheader', { name: label }).closest('tr')!.querySelector('td')!;

describe('APNS settings page', () => {
  it('shows the certificate’s subject, topic and expiry, and warns when it expires within 30 days', async () => {
    state = { csr: null, certificate: certificate() };
    renderPage();
    const table = await screen.findByRole('table', { name: 'Current certificate' });
    expect(rowValue(table, 'Subject')).toHaveTextContent(`UID=${TOPIC}, CN=APSP:1b2c3d4e, C=US`);
    expect(rowValue(table, 'Topic')).toHaveTextContent(TOPIC);
    expect(rowValue(table, 'Serial number')).toHaveTextContent('4AF2A431955F925DEF85A9B5132CCBBBABED6AE0');
    expect(rowValue(table, 'Expires')).toHaveTextContent('2026-03-12 9:00 AM UTC');
    expect(rowValue(table, 'Expires')).toHaveTextContent('9 days left');
    const warning = screen.getByRole('alert');
    expect(warning).toHaveTextContent('The APNS certificate expires in 9 days');
    expect(warning).toHaveTextContent('It expires on 2026-03-12 9:00 AM UTC. Renew it now');
    // A renewal request keeps the key.
    expect(screen.getByRole('button', { name: 'Generate Renewal Request' })).toBeInTheDocument();
  });

  it('shows no warning for a certificate far from its end, and an expired one as expired', async () => {
    state = { csr: null, certificate: certificate({ days_left: 200, expiring_soon: false }) };
    const first = renderPage();
    await screen.findByRole('table', { name: 'Current certificate' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    first.unmount();

    state = { csr: null, certificate: certificate({ days_left: 0, expiring_soon: false, expired: true }) };
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('The APNS certificate has expired');
    expect(screen.getByRole('alert')).toHaveTextContent('It expired on 2026-03-12 9:00 AM UTC');
  });

  it('generates a signing request and offers it as a download', async () => {
    renderPage();
    expect(await screen.findByText(APNS_PAGE_NONE)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate Request' }));
    const pending = await screen.findByRole('group', { name: 'Pending request' });
    expect(within(pending).getByRole('link', { name: 'Download Request' })).toHaveAttribute(
      'href',
      '/api/apns/csr.pem?o=1',
    );
    expect(within(pending).getByText(/BEGIN CERTIFICATE REQUEST/)).toBeInTheDocument();
  });

  it('uploads a PKCS#12 file made by openssl whole, shows the wrong password’s error, then the certificate', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByText(APNS_PAGE_NONE);
    const form = screen.getByRole('form', { name: '2. Upload the certificate Apple issued' });
    const input = form.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([new Uint8Array(p12)], 'push.p12', { type: 'application/x-pkcs12' }));
    await user.type(await within(form).findByLabelText('PKCS#12 password'), 'wrong');
    await user.click(within(form).getByRole('button', { name: 'Upload Certificate' }));
    expect(await within(form).findByText(APNS_TEXTS.badPassword)).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('PKCS#12 password'));
    await user.type(within(form).getByLabelText('PKCS#12 password'), PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Upload Certificate' }));
    const table = await screen.findByRole('table', { name: 'Current certificate' });
    expect(rowValue(table, 'Topic')).toHaveTextContent(TOPIC);
    expect(rowValue(table, 'Expires')).toHaveTextContent('2027-03-02 9:00 AM UTC');
    expect(screen.queryByText(/The APNS certificate expires in/)).not.toBeInTheDocument();
    expect(uploads.map((u) => JSON.parse(u.body).format)).toEqual(['pkcs12', 'pkcs12']);
  });

  it('sends a PEM file as text, and refuses a file over 64 KB without sending it', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByText(APNS_PAGE_NONE);
    const form = screen.getByRole('form', { name: '2. Upload the certificate Apple issued' });
    const input = form.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([new Uint8Array(70 * 1024)], 'big.pem'));
    await user.click(within(form).getByRole('button', { name: 'Upload Certificate' }));
    expect(await within(form).findByText(APNS_TEXTS.fileTooLarge)).toBeInTheDocument();
    expect(uploads).toEqual([]);

    await user.upload(input, new File([new Uint8Array(pem)], 'MDM_Patchwell_Certificate.pem'));
    expect(within(form).queryByLabelText('PKCS#12 password')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Upload Certificate' }));
    await screen.findByRole('table', { name: 'Current certificate' });
    expect(uploads).toHaveLength(1);
    expect(JSON.parse(uploads[0]!.body)).toEqual({ format: 'pem', data: pem.toString() });
  });
});

const APNS_PAGE_NONE = 'No APNS certificate has been uploaded for this zone.';

describe('Get started with macOS', () => {
  it('links to the APNS settings for those who may see them', async () => {
    const first = renderInShell(
      [{ path: '/manage/get-started-mac-os', element: <GetStartedMacOsPage /> }],
      '/manage/get-started-mac-os?o=1',
      { profile: flagsOn() },
    );
    expect(await screen.findByRole('link', { name: 'Open APNS settings' })).toHaveAttribute(
      'href',
      '/settings/apns?o=1',
    );
    first.unmount();
    renderInShell(
      [{ path: '/manage/get-started-mac-os', element: <GetStartedMacOsPage /> }],
      '/manage/get-started-mac-os?o=1',
      { profile: buildProfile({ orgs: [acme] }) },
    );
    await screen.findByRole('heading', { name: 'Get Started with macOS' });
    expect(screen.queryByRole('link', { name: 'Open APNS settings' })).not.toBeInTheDocument();
  });
});
