import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, request, test, type APIRequestContext, type APIResponse, type Response } from '@playwright/test';
import { startTestDns, type TestDns } from '../../packages/server/src/test/dns-server';
import { freePort, SIMPLESAMLPHP_WWW, startSimpleSamlPhp, stop, waitForHttp, type Idp } from './saml-idp';

/**
 * Single sign-on through a real identity provider (SimpleSAMLphp): login page → the IdP's own
 * login form → its signed response posted to our ACS → the console, signed in with the role
 * the connection maps.
 *
 * Everything is set up the way an administrator does it, through the API of a Patchwell
 * server this journey runs (`dist/main.mjs`, the bundle `npm start` built and runs, with the console
 * it built, on a fresh embedded database whose first administrator comes from PATCHWELL_ADMIN_*):
 * two zones, a `zone_rbac` connection created from the metadata the IdP publishes (Alpha →
 * Zone Operator, Beta → Read Only), its domain example.org proved by a TXT record that a
 * loopback DNS server (the server's `DNS_SERVERS`) answers, and SSO required in Alpha. Then
 * the IdP is told to trust the SP entity ID and ACS URL the API gives for the connection.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'root@patchwell.test', password: 'saml-journey-admin-2026' };
const DOMAIN = 'example.org';
const READ_ONLY = 2;
const ZONE_OPERATOR = 4;

let idp: Idp | undefined;
let dns: TestDns | undefined;
let server: ChildProcess | undefined;
let baseUrl = '';
type Zone = { id: number; name: string };
let zones: { alpha: Zone; beta: Zone };

test.skip(!existsSync(SIMPLESAMLPHP_WWW), 'SimpleSAMLphp is not installed (.ci/run installs it)');
// Each journey goes through the IdP and back once or twice, each time loading the console anew.
test.describe.configure({ timeout: 60_000 });

/** The JSON body of a call that must answer `status`. */
async function expectJson<T>(answer: Promise<APIResponse>, status: number): Promise<T> {
  const res = await answer;
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/** What a global administrator does in Global setup, through the API: zones, connection, domain, SSO requirement. */
async function setUpSingleSignOn(api: APIRequestContext, idpMetadataXml: string) {
  const basic = Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64');
  const profile = await expectJson<{ account_id: number }>(
    api.get('/api/users/self', { headers: { authorization: `Basic ${basic}` } }),
    200,
  );
  const account = `/api/accounts/${profile.account_id}`;
  const zone = async (name: string) =>
    expectJson<Zone>(api.post(`${account}/zones`, { data: { name } }), 201).then((z) => ({ id: z.id, name: z.name }));
  const alpha = await zone('Alpha Zone');
  const beta = await zone('Beta Zone');

  const connection = await expectJson<{ id: string; sp: { entity_id: string; acs_url: string } | null }>(
    api.post(`${account}/connections`, {
      data: {
        name: 'SimpleSAMLphp',
        provision_type: 'zone_rbac',
        domains: [DOMAIN],
        metadata_xml: idpMetadataXml,
        zone_roles: [
          { zone_id: alpha.id, role_id: ZONE_OPERATOR },
          { zone_id: beta.id, role_id: READ_ONLY },
        ],
      },
    }),
    201,
  );

  type Domain = { id: string; name: string; verification_record: { host: string; value: string } };
  const domains = await expectJson<{ data: Domain[] }>(api.get(`${account}/domains`), 200);
  const domain = domains.data.find((d) => d.name === DOMAIN)!;
  expect(domain.verification_record.value).toMatch(/^patchwell-verification=/);
  dns!.records.set(domain.verification_record.host, [[domain.verification_record.value]]);
  const verified = await expectJson<{ verified: boolean }>(api.post(`${account}/domains/${domain.id}/verify`), 200);
  expect(verified.verified).toBe(true);

  await expectJson(api.put(`/api/orgs/${alpha.id}/require-sso`, { data: { enabled: true } }), 200);
  expect(connection.sp, 'the API gives the SP details on loopback').not.toBeNull();
  return { alpha, beta, sp: connection.sp! };
}

test.beforeAll(async () => {
  // A cold start compiles the server's TypeScript: tens of seconds on a busy machine.
  test.setTimeout(240_000);
  dns = await startTestDns();
  idp = await startSimpleSamlPhp();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'patchwell-e2e-saml-')),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    PATCHWELL_DEMO: '0',
    PATCHWELL_ADMIN_EMAIL: ADMIN.email,
    PATCHWELL_ADMIN_PASSWORD: ADMIN.password,
    DNS_SERVERS: dns.server,
    // Zone re-authentication is behind its flag (spec A section 4).
    PATCHWELL_FLAGS: 'zone_reauthentication=1',
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['dist/main.mjs'], {
    cwd: join(ROOT, 'packages/server'),
    env,
    stdio: 'ignore',
  });
  await waitForHttp(`${baseUrl}/readyz`, 180_000);

  const metadata = await fetch(idp.metadataUrl);
  expect(metadata.ok).toBe(true);
  const api = await request.newContext({ baseURL: baseUrl });
  try {
    const { alpha, beta, sp } = await setUpSingleSignOn(api, await metadata.text());
    zones = { alpha, beta };
    idp.trust({ entityId: sp.entity_id, acsUrl: sp.acs_url });
  } finally {
    await api.dispose();
  }
});

test.afterAll(async () => {
  await stop(server);
  await stop(idp?.process);
  await dns?.close();
});

/** The console's first page in `zone` (the dashboard; onboarding for a zone with no devices yet). */
function consoleHome(zone: Zone): RegExp {
  return new RegExp(`^${baseUrl}/console/(dashboard|onboarding)\\?o=${zone.id}$`);
}

/** How long the ACS took to answer a sign-in (request sent → first byte), after checking it signed in. */
async function acsMs(answer: Response): Promise<number> {
  expect(answer.status()).toBe(302);
  expect(answer.headers()['location']).not.toContain('err=');
  const timing = answer.request().timing();
  return Math.round(timing.responseStart - timing.requestStart);
}

test('a user of a connected domain signs in through the identity provider and gets the mapped role', async ({
  page,
}) => {
  await page.goto(`${baseUrl}/console/login`);
  await page.getByLabel(/email/i).fill('alice@example.org');
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();

  // SimpleSAMLphp's own login form.
  await expect(page).toHaveURL(new RegExp(`^${idp!.baseUrl}/module\\.php/core/loginuserpass\\.php`));
  await page.locator('input[name="username"]').fill('alice');
  await page.locator('input[name="password"]').fill('alicepass');
  const acs = page.waitForResponse((r) => r.url().includes('/acs') && r.request().method() === 'POST');
  await page
    .locator('form')
    .filter({ has: page.locator('input[name="password"]') })
    .locator('button, input[type="submit"]')
    .first()
    .click();

  const first = await acsMs(await acs);
  await expect(page).toHaveURL(consoleHome(zones.alpha));
  await expect(
    page.getByRole('banner').getByRole('button', { name: `Zone: ${zones.alpha.name}, Role: Zone Operator` }),
  ).toBeVisible();

  // Again, with the IdP's session: its page posts straight back, and the ACS is warm.
  await page.goto(`${baseUrl}/console/login`);
  await page.getByLabel(/email/i).fill('alice@example.org');
  const again = page.waitForResponse((r) => r.url().includes('/acs') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
  const second = await acsMs(await again);
  await expect(page).toHaveURL(consoleHome(zones.alpha));
  console.log(`SAML sign-in: ACS answered in ${first} ms (first, cold), ${second} ms (second)`);
});

test('leaving a zone that requires SAML asks to log in again, and the IdP signs the user into the other zone', async ({
  page,
}) => {
  await page.goto(`${baseUrl}/console/login?o=${zones.alpha.id}`);
  await page.getByLabel(/email/i).fill('alice@example.org');
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
  await page.locator('input[name="username"]').fill('alice');
  await page.locator('input[name="password"]').fill('alicepass');
  await page.locator('input[name="password"]').press('Enter');
  const nav = page.getByRole('banner');
  await expect(nav.getByRole('button', { name: `Zone: ${zones.alpha.name}, Role: Zone Operator` })).toBeVisible();

  await nav.getByRole('button', { name: /^Zone: / }).click();
  await page
    .getByRole('list', { name: 'Select a zone' })
    .getByRole('button', { name: new RegExp(zones.beta.name) })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Login Required' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue To Login' }).click();

  // Signed out, on the login page for the other zone; the address goes to the IdP, whose session answers at once.
  await expect(page).toHaveURL(new RegExp(`/console/login\\?.*o=${zones.beta.id}`));
  await page.getByLabel(/email/i).fill('alice@example.org');
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
  await expect(nav.getByRole('button', { name: `Zone: ${zones.beta.name}, Role: Read Only` })).toBeVisible();
});

test('a wrong password stays on the identity provider’s form', async ({ page }) => {
  await page.goto(`${baseUrl}/console/login`);
  await page.getByLabel(/email/i).fill('alice@example.org');
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
  await page.locator('input[name="username"]').fill('alice');
  await page.locator('input[name="password"]').fill('not-her-password');
  await page
    .locator('form')
    .filter({ has: page.locator('input[name="password"]') })
    .locator('button, input[type="submit"]')
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`^${idp!.baseUrl}/`));
  await expect(page.locator('input[name="password"]')).toBeVisible();
});
