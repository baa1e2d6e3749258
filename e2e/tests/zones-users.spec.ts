import { expect, test } from '@playwright/test';
import { TEXTS } from '../../packages/core/src/texts';
import { DEMO, expectShell, mailedLink, signIn, uniqueEmail } from './helpers';

test('a global administrator creates a zone and invites a user, who accepts and sees only that zone', async ({
  page,
  browser,
}) => {
  // Two browsers, a new zone, an invitation and its acceptance: longer than one page's journey.
  test.setTimeout(60_000);
  await signIn(page);
  const homeZone = await expectShell(page);

  // Create the zone in global setup.
  const zoneName = `E2E Zone ${Date.now()}`;
  await page.goto(`/console/global/setup/zones?o=${homeZone}`);
  await page
    .getByRole('link', { name: 'Create zone' })
    .or(page.getByRole('button', { name: 'Create zone' }))
    .click();
  const create = page.getByRole('button', { name: 'Create Zone' });
  await expect(create).toBeDisabled();
  await page.getByLabel('Zone name').fill(zoneName);
  await create.click();
  await expect(page.getByText(TEXTS.zones.created)).toBeVisible();
  await expect(page).toHaveURL(/\/console\/global\/setup\/zones\/\d+/);
  const newZone = Number(/zones\/(\d+)/.exec(page.url())![1]);

  // Invite a Read Only user into it.
  const email = uniqueEmail('invitee');
  await page.goto(`/console/settings/users?o=${newZone}`);
  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption({ label: 'Read Only' });
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  // The journeys' server sends mail through a relay (a loopback SMTP capture): the dialog closes
  // with the success message, and the accept link arrives by mail. Without a relay the dialog
  // stays to offer the link (InviteUserDialog and UserEditorPage component tests).
  await expect(page.getByText(`An invitation has been sent to ${email}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  const link = await mailedLink(email, 'accept-invite');
  await expect(page.getByRole('table', { name: 'Users' })).toContainText(email);

  // The invitee accepts in a browser of their own.
  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link);
  await expect(invitee.getByText(zoneName).first()).toBeVisible();
  await invitee.getByLabel('First name').fill('Grace');
  await invitee.getByLabel('Last name').fill('Hopper');
  await invitee.getByLabel(/^password/i).fill('a long and unusual passphrase');
  await invitee.getByLabel(/confirm/i).fill('a long and unusual passphrase');
  await invitee.getByRole('button', { name: /accept|join|continue/i }).click();
  expect(await expectShell(invitee)).toBe(newZone);

  // Only that zone, with the invited role.
  const nav = invitee.getByRole('banner');
  await expect(nav.getByRole('button', { name: `Zone: ${zoneName}, Role: Read Only` })).toBeVisible();
  await nav.getByRole('button', { name: /^Zone: / }).click();
  await expect(invitee.getByRole('list', { name: 'Select a zone' }).getByRole('button')).toHaveCount(1);
  await expect(invitee.getByRole('textbox', { name: 'Search zones' })).toHaveCount(0);
  await invitee.keyboard.press('Escape');

  // The menu matches a Read Only role: no Billing, no Users.
  await nav.getByRole('button', { name: 'Account menu' }).click();
  await expect(invitee.getByRole('menuitem', { name: /^Keys$/ })).toBeVisible();
  await expect(invitee.getByRole('menuitem', { name: /^Billing$/ })).toHaveCount(0);
  await expect(invitee.getByRole('menuitem', { name: /^Users$/ })).toHaveCount(0);
  await invitee.keyboard.press('Escape');

  // The invitation link works once.
  const reuse = await invitee.request.get(`/api/invitations/${new URL(link).searchParams.get('token')}`);
  expect(reuse.status()).toBe(410);
  await context.close();

  // The inviter sees the user as active now.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row', { name: new RegExp(email) })).toContainText(
    'Active',
  );
});

test('a read-only user cannot reach the billing or users pages and falls back to the profile', async ({ page }) => {
  await signIn(page, 'readonly@patchwell.local', DEMO.password);
  const zone = await expectShell(page);
  for (const path of ['/settings/billing', '/settings/users']) {
    await page.goto(`/console${path}?o=${zone}`);
    await expect(page).toHaveURL(new RegExp(`/console/settings/profile\\?(.*&)?o=${zone}`));
  }
  await page.goto(`/console/global/setup?o=${zone}`);
  await expect(page.getByText(TEXTS.notFound.title)).toBeVisible();
  // The API refuses the same, whatever the console shows.
  expect((await page.request.get(`/api/users?o=${zone}`)).status()).toBe(403);
});

test('the organisation menu of a global administrator links to zone and user management', async ({ page }) => {
  await signIn(page);
  await expectShell(page);
  // The demo's global administrator gets the link to zone management instead of the dialog.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Zone: / })
    .click();
  await expect(page.getByRole('link', { name: /manage zones and users/i })).toBeVisible();
});
