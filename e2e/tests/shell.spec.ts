import { expect, test } from '@playwright/test';
import { expectShell, signIn } from './helpers';

test.describe('console shell', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await expectShell(page);
  });

  test('every top-level menu opens', async ({ page }) => {
    const nav = page.getByRole('banner');
    for (const link of ['Devices', 'Software', 'Reports']) {
      await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
    }
    await nav.getByRole('button', { name: 'Manage', exact: true }).click();
    for (const item of ['Policies', 'Groups', 'Remediations', 'Worklet Catalog']) {
      await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
    }
    // Automated vulnerability remediation is on by default: Remediations replaces Tasks.
    await expect(page.getByRole('menuitem', { name: 'Tasks' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await nav.getByRole('button', { name: /help/i }).click();
    for (const item of ['Knowledge Base', 'Release Notes', 'Community', 'API Reference Guide', 'University']) {
      await expect(page.getByRole('menuitem', { name: item })).toHaveAttribute('target', '_blank');
    }
    await page.keyboard.press('Escape');

    await nav.getByRole('button', { name: /organi[sz]ation|zone/i }).first().click();
    await expect(page.getByText(/^Role: /)).toBeVisible();
    await page.keyboard.press('Escape');

    await nav.getByRole('button', { name: /account|user menu|secondary/i }).click();
    for (const item of [/Demo/, /^Billing$/, /^Users$/, /^Keys$/, /^Logout$/]) {
      await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
    }
  });

  test('navigating keeps the zone, and a reload keeps the chosen zone', async ({ page }) => {
    const nav = page.getByRole('banner');
    await nav.getByRole('button', { name: /organi[sz]ation|zone/i }).first().click();
    const items = page.getByRole('menuitem').filter({ hasNotText: /manage zones|create new zone/i });
    const count = await items.count();
    expect(count).toBeGreaterThan(1);
    const target = items.nth(count - 1);
    const name = (await target.innerText()).split('\n')[0]!.trim();
    await target.click();
    await expect(nav).toContainText(name);
    const zone = Number(new URL(page.url()).searchParams.get('o'));

    await nav.getByRole('link', { name: 'Devices', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/devices\\?(.*&)?o=${zone}`));
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`o=${zone}`));
    await expect(nav).toContainText(name);
  });

  test('an unknown route shows the 404 page', async ({ page }) => {
    await page.goto('/console/no/such/page');
    await expect(page.getByText('404 - Page Not Found')).toBeVisible();
    await expect(page.getByText('The page you were looking for could not be found.')).toBeVisible();
  });

  test('below the medium breakpoint the links move into the mobile menu', async ({ page }) => {
    await page.setViewportSize({ width: 600, height: 900 });
    const nav = page.getByRole('banner');
    await expect(nav.getByRole('link', { name: 'Devices', exact: true })).toBeHidden();
    await nav.getByRole('button', { name: /menu|navigation/i }).first().click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Devices', exact: true })).toBeVisible();
  });
});
