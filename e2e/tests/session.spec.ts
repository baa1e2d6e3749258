import { expect, test } from '@playwright/test';
import { TEXTS } from '../../packages/core/src/texts';
import { expectShell, signIn, submitSignIn } from './helpers';

test('an expired session returns to login with the spec message, then back to the page', async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(page);
  const zone = await expectShell(page);

  // End the session on the server, as its idle timeout would, while the browser keeps its cookie.
  const cookies = await context.cookies();
  const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await page.request.fetch(`${baseURL}/api/logout`, {
    method: 'POST',
    headers: { cookie: cookieHeader, origin: baseURL! },
  });
  expect(res.ok()).toBe(true);

  await page.goto(`/console/reports?o=${zone}`);
  await expect(page).toHaveURL(/\/console\/login\?.*err=session-expired/);
  expect(decodeURIComponent(page.url())).toContain('redirect=/reports');
  await expect(page.getByText(TEXTS.login.sessionExpired)).toBeVisible();

  await submitSignIn(page);
  await expect(page).toHaveURL(new RegExp(`/console/reports\\?(.*&)?o=${zone}`));
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
