import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { TEXTS } from '../../packages/core/src/texts';
import { expectShell, signIn, submitSignIn } from './helpers';

/** Ends the session on the server, as its idle timeout would, while the browser keeps its cookie. */
async function endSessionOnServer(page: Page, context: BrowserContext, baseURL: string) {
  const cookies = await context.cookies();
  const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await page.request.fetch(`${baseURL}/api/logout`, {
    method: 'POST',
    headers: { cookie: cookieHeader, origin: baseURL },
  });
  expect(res.ok()).toBe(true);
}

test('an expired session returns to login with the spec message, then back to the page', async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(page);
  const zone = await expectShell(page);
  await endSessionOnServer(page, context, baseURL!);

  await page.goto(`/console/reports?o=${zone}`);
  await expect(page).toHaveURL(/\/console\/login\?.*err=session-expired/);
  expect(decodeURIComponent(page.url())).toContain('redirect=/reports');
  await expect(page.getByText(TEXTS.login.sessionExpired)).toBeVisible();

  await submitSignIn(page);
  await expect(page).toHaveURL(new RegExp(`/console/reports\\?(.*&)?o=${zone}`));
});

// The call's 401 makes the console check the session through a lazily imported module; the
// production build once took that check's own 401 for a failed download ('Reload Required').
test('a call that finds the session ended on the page goes to login with the spec message', async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(page);
  const zone = await expectShell(page);
  await page.goto(`/console/settings/profile?o=${zone}`);
  const section = page.getByRole('region', { name: 'Multi-factor authentication' });
  await section.getByRole('radio', { name: 'Authenticator app' }).check();
  await endSessionOnServer(page, context, baseURL!);

  await section.getByRole('button', { name: 'Set up' }).click();
  await expect(page).toHaveURL(/\/console\/login\?.*err=session-expired/);
  expect(decodeURIComponent(page.url())).toContain('redirect=/settings/profile');
  await expect(page.getByText(TEXTS.login.sessionExpired)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Reload Required' })).toHaveCount(0);
});

test('logging out from the menu returns to login', async ({ page }) => {
  await signIn(page);
  await expectShell(page);
  await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: /^Logout$/ }).click();
  await expect(page).toHaveURL(/\/console\/login/);
  const res = await page.request.get('/api/users/is-authenticated');
  expect(res.status()).toBe(401);
});
