import { expect, test } from '@playwright/test';
import { PASSWORD_RESET_TEXTS } from '../../packages/core/src/auth/password-reset.schema';
import { TEXTS } from '../../packages/core/src/texts';
import { expectShell, mailedLink, signIn, submitSignIn, uniqueEmail } from './helpers';

/**
 * Issue 13: forgot password → the mail, as the loopback SMTP server received it from the
 * server's relay → the link followed in Chromium → a new password → signed in with it. The user is a fresh
 * invitee of the demo account, so the demo's own password stays as the other journeys expect.
 */

const FIRST_PASSWORD = 'the first long and unusual passphrase';
const NEW_PASSWORD = 'a second long and unusual passphrase';

test('a user who forgot the password resets it with the mailed link and signs in with the new one', async ({
  page,
  browser,
}) => {
  // An invitation, an acceptance, a reset and three sign-ins: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  // The demo's global administrator invites a user, who accepts with a first password.
  await signIn(page);
  const zone = await expectShell(page);
  const email = uniqueEmail('reset');
  const invited = await page.request.post(`/api/inviteUser?o=${zone}`, { data: { email, role_id: 2 } });
  expect(invited.ok()).toBe(true);
  const accept = await mailedLink(email, 'accept-invite');
  const token = new URL(accept).searchParams.get('token')!;
  const context = await browser.newContext();
  const accepted = await context.request.post(`/api/invitations/${token}/accept`, {
    data: { firstname: 'Reset', lastname: 'Journey', password: FIRST_PASSWORD, password_confirmation: FIRST_PASSWORD },
  });
  expect(accepted.ok()).toBe(true);
  await context.close();

  // Signed out, in a browser of their own: the login page links to /forgot-password.
  const userContext = await browser.newContext();
  const user = await userContext.newPage();
  await user.goto('/console/login');
  await user.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(user).toHaveURL(/\/console\/forgot-password/);
  await user.getByLabel(/^Email/).fill(email);
  await user.getByRole('button', { name: PASSWORD_RESET_TEXTS.send }).click();
  await expect(user.getByText(PASSWORD_RESET_TEXTS.requested)).toBeVisible();
  await expect(user.getByText(TEXTS.success.passwordResetEmailSent)).toBeVisible();

  // The mail arrives through the SMTP capture; the link is followed in Chromium.
  const link = await mailedLink(email, 'password-reset');
  await user.goto(link);
  await expect(user.getByText(PASSWORD_RESET_TEXTS.resetFor(email))).toBeVisible();
  await user.getByLabel(/^Password/).fill(NEW_PASSWORD);
  await user.getByLabel(/^Confirm password/).fill(NEW_PASSWORD);
  await user.getByRole('button', { name: PASSWORD_RESET_TEXTS.resetSubmit }).click();
  await expect(user.getByText(/^Your password has been changed\./)).toBeVisible();

  // The link worked once; the old password no longer does; the new one signs in.
  await user.goto(link);
  await expect(user.getByRole('alert')).toContainText(PASSWORD_RESET_TEXTS.linkGone);
  await user.goto('/console/login');
  await submitSignIn(user, email, FIRST_PASSWORD);
  await expect(user.getByRole('alert')).toContainText('Invalid email or password.');
  await user.goto('/console/login');
  await submitSignIn(user, email, NEW_PASSWORD);
  expect(await expectShell(user)).toBe(zone);
  await userContext.close();
});
