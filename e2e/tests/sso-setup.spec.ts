import { expect, test } from '@playwright/test';
import { CONNECTION_TEXTS } from '../../packages/core/src/sso/connections.schema';
import { DOMAIN_TEXTS } from '../../packages/core/src/sso/domains.schema';
import { makeCertificate } from '../../packages/server/src/test/idp-fixtures';
import { seriousViolations } from './axe';
import { expectShell, signIn } from './helpers';

// Issue 13: the demo global administrator creates a SAML connection from fields, sees the
// SP details to give the IdP, and adds a domain whose TXT record the Domains tab shows.
// Verification itself (DNS) is tested on the server against a loopback DNS server.
test('a global administrator creates a SAML connection and adds a domain with its TXT record', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  const o = await expectShell(page);
  const stamp = Date.now().toString(36);
  const connectionName = `E2E IdP ${stamp}`;
  const connectionDomain = `sso-${stamp}.example`;

  await page.goto(`/console/global/setup/authentication?o=${o}`);
  await expect(page.getByRole('heading', { name: 'Authentication' })).toBeVisible();
  await page.getByRole('link', { name: 'Create connection' }).click();
  await expect(page).toHaveURL(/\/global\/setup\/authentication\/create-connection/);
  await expect(page.getByLabel('Connection name')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Connection name').fill(connectionName);
  await page.getByLabel('Email domains').fill(connectionDomain);
  await page.getByLabel('X.509 certificate (PEM)').fill(makeCertificate('e2e-idp.patchwell.test'));
  await page.getByLabel('Sign-in URL').fill('https://idp.example.test/sso');
  await page.getByLabel('Entity ID').fill('https://idp.example.test/entity');
  await page.getByRole('button', { name: 'Create Connection' }).click();

  await expect(page.getByText(CONNECTION_TEXTS.created)).toBeVisible();
  await expect(page).toHaveURL(/\/global\/setup\/authentication\/[0-9a-f-]{36}\?o=\d+/);
  const connectionId = /authentication\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await expect(page.getByRole('heading', { name: connectionName })).toBeVisible();
  const sp = page.getByRole('region', { name: 'Service provider details for your identity provider' });
  await expect(sp).toContainText(`/api/saml/${connectionId}/acs`);
  await expect(sp).toContainText(`/api/saml/${connectionId}/metadata`);
  await expect(sp.getByRole('button', { name: 'Copy ACS URL' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The metadata URL shown is the one an IdP can fetch.
  const metadata = await page.request.get(`/api/saml/${connectionId}/metadata`);
  expect(metadata.ok()).toBe(true);
  expect(await metadata.text()).toContain(`/api/saml/${connectionId}/acs`);

  // The list shows it.
  await page.getByRole('link', { name: 'Back to connections' }).click();
  await expect(page.getByRole('table', { name: 'Authentication' })).toContainText(connectionName);

  // Domains: the connection's domain is there, pending; add another and read its TXT record.
  await page.getByRole('link', { name: 'Domains' }).click();
  await expect(page).toHaveURL(/\/global\/setup\/domains/);
  const table = page.getByRole('table', { name: 'Domains' });
  await expect(table.getByRole('row', { name: new RegExp(connectionDomain) })).toContainText(connectionName);

  const domain = `verify-${stamp}.example`;
  await page.getByLabel('Domain', { exact: true }).fill(`${domain.toUpperCase()}.`);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText(DOMAIN_TEXTS.created)).toBeVisible();
  const row = table.getByRole('row', { name: new RegExp(domain) });
  await expect(row).toContainText('Pending');
  const profile = (await (await page.request.get(`/api/users/self?o=${o}`)).json()) as { account_id: number };
  const list = (await (await page.request.get(`/api/accounts/${profile.account_id}/domains`)).json()) as {
    data: { name: string; verification_record: { value: string } }[];
  };
  const record = list.data.find((d) => d.name === domain)!.verification_record.value;
  expect(record).toMatch(/^patchwell-verification=[0-9a-f]{32}$/);
  await expect(row).toContainText(record);
  await expect(row.getByRole('button', { name: `Copy the TXT record of ${domain}` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Verify ${domain}` })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // An invalid name is refused with the spec's text before anything is sent.
  await page.getByLabel('Domain', { exact: true }).fill('not a domain');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText('Must be a valid domain.')).toBeVisible();
});
