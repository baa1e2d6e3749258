import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO, expectShell, mailedLink, signIn, uniqueEmail } from './helpers';

const PASSWORD = 'a long and unusual passphrase for mfa';

/** The authenticator app's code `steps` 30-second steps from now, as a phone computes it. */
const appCode = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test('a user enrols an authenticator app from the profile and signs in again with a code', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);

  // A user of their own (the demo user's sign-in stays password-only for the other journeys),
  // invited by the demo administrator through the API.
  const admin = await browser.newContext();
  const basic = `Basic ${Buffer.from(`${DEMO.email}:${DEMO.password}`).toString('base64')}`;
  const self = await admin.request.get('/api/users/self', { headers: { authorization: basic } });
  expect(self.ok()).toBe(true);
  const zoneId = ((await self.json()) as { orgs: { id: number }[] }).orgs[0]!.id;
  const email = uniqueEmail('mfa');
  const invited = await admin.request.post(`/api/inviteUser?o=${zoneId}`, { data: { email, role_id: 2 } });
  expect(invited.status()).toBe(201);
  const link = await mailedLink(email, 'accept-invite');
  const token = new URL(link).searchParams.get('token')!;
  const accepted = await admin.request.post(`/api/invitations/${token}/accept`, {
    data: { firstname: 'Mia', lastname: 'Factor', password: PASSWORD, password_confirmation: PASSWORD },
  });
  expect(accepted.ok()).toBe(true);
  await admin.close();

  // Enrol from the profile: the secret shown on the page goes into "the app" (otplib here).
  await signIn(page, email, PASSWORD);
  const zone = await expectShell(page);
  await page.goto(`/console/settings/profile?o=${zone}`);
  const section = page.getByRole('region', { name: 'Multi-factor authentication' });
  await expect(section.getByText('Multi-factor authentication is off.')).toBeVisible();
  await section.getByRole('radio', { name: 'Authenticator app' }).check();
  await section.getByRole('button', { name: 'Set up' }).click();
  await expect(section.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
  const secret = (await section.getByTestId('mfa-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await section.getByLabel('Code').fill(await appCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();

  // Recovery codes, shown once.
  const codes = section.getByRole('region', { name: 'Recovery codes' });
  await expect(codes.getByTestId('recovery-code')).toHaveCount(10);
  await codes.getByRole('button', { name: 'I saved them' }).click();
  await expect(section.getByText('On: codes from an authenticator app.')).toBeVisible();

  // Sign out, then in again: the password alone is not enough.
  const out = await page.request.post('/api/logout');
  expect(out.status()).toBe(204);
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
  // The enrolment spent the current step: the next one is accepted (one step of drift either way).
  await page.getByLabel('Code').fill(await appCode(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  expect(await expectShell(page)).toBe(zone);
});
