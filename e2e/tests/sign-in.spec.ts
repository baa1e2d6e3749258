import { expect, test } from '@playwright/test';
import { TEXTS } from '../../packages/core/src/texts';
import { DEMO, expectShell, signIn, submitSignIn, uniqueEmail } from './helpers';

test.describe('sign-up and sign-in', () => {
  // Following the verification link, and what comes after it: dashboard.spec.ts.
  test('a newcomer signs up and is asked to verify the address before signing in', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/console/signup');
    await page.getByLabel(/first name/i).fill('Ada');
    await page.getByLabel(/last name/i).fill('Lovelace');
    await page.getByLabel(/company/i).fill(`Analytical Engines ${Date.now()}`);
    await page.getByLabel(/email/i).fill(email);
    await page.getByLabel(/^password/i).fill('correct horse battery staple');
    await page.getByLabel(/confirm/i).fill('correct horse battery staple');
    await page.getByLabel(/endpoints/i).fill('25');
    await page.getByRole('button', { name: /sign ?up|create account/i }).click();
    await expect(page).toHaveURL(/\/console\/login\?err=verification_email_sent/);
    await expect(page.getByText(TEXTS.login.verificationEmailSent)).toBeVisible();
    // Signing in before following the link is refused with the same words, and a new link is offered.
    await submitSignIn(page, email, 'correct horse battery staple');
    await expect(page.getByRole('alert')).toContainText(TEXTS.login.verificationEmailSent);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByText(/we have sent it a new verification link/)).toBeVisible();
  });

  test('the login page asks the API nothing before its form: the configuration comes with the page', async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });
    await page.goto('/console/login', { waitUntil: 'networkidle' });
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    expect(asked).toEqual([]);
    // The block was read and dropped: what the page needed of it is in the console's cache.
    await expect(page.locator('#pw-config')).toHaveCount(0);
  });

  test('sign-up lists every invalid field', async ({ page }) => {
    await page.goto('/console/signup');
    await page.getByLabel(/^password/i).fill('short');
    await page.getByRole('button', { name: /sign ?up|create account/i }).click();
    await expect(page.getByText('Value must be at least 12 characters.')).toBeVisible();
    await expect(page.getByText(/first name is required/i)).toBeVisible();
    await expect(page).toHaveURL(/\/console\/signup/);
  });

  test('a wrong password is refused with the server message', async ({ page }) => {
    await signIn(page, DEMO.email, 'not the right password');
    await expect(page.getByText('Invalid email or password.')).toBeVisible();
    await expect(page).toHaveURL(/\/console\/login/);
  });

  test('the demo user signs in with an upper-case email and sees the shell', async ({ page }) => {
    await signIn(page, DEMO.email.toUpperCase());
    const zone = await expectShell(page);
    expect(zone).toBeGreaterThan(0);
    await expect(page).toHaveTitle(/ · Patchwell$/);
  });
});
