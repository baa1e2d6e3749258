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

    await nav.getByRole('button', { name: /^Zone: / }).click();
    const zoneMenu = page.getByRole('dialog', { name: /^Zone: / });
    await expect(zoneMenu.getByText(/^Role: /)).toBeVisible();
    await expect(zoneMenu.getByRole('textbox', { name: 'Search zones' })).toBeVisible();
    await page.keyboard.press('Escape');

    await nav.getByRole('button', { name: 'Account menu' }).click();
    for (const item of [/Demo/, /^Billing$/, /^Users$/, /^Keys$/, /^Logout$/]) {
      await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
    }
  });

  test('navigating keeps the zone, and a reload keeps the chosen zone', async ({ page }) => {
    const nav = page.getByRole('banner');
    const before = Number(new URL(page.url()).searchParams.get('o'));
    await nav.getByRole('button', { name: /^Zone: / }).click();
    const zones = page.getByRole('list', { name: 'Select a zone' }).getByRole('button');
    await expect(zones.nth(1)).toBeVisible();
    const count = await zones.count();
    expect(count).toBeGreaterThan(1);
    const target = zones.nth(count - 1);
    const name = (await target.innerText()).trim();
    await target.click();
    await expect(nav.getByRole('button', { name: /^Zone: / })).toContainText(name);
    const zone = Number(new URL(page.url()).searchParams.get('o'));
    expect(zone).not.toBe(before);

    // The search box filters case-insensitively and says when nothing matches.
    await nav.getByRole('button', { name: /^Zone: / }).click();
    await page.getByRole('textbox', { name: 'Search zones' }).fill(name.toUpperCase());
    await expect(zones).toHaveCount(1);
    await page.getByRole('textbox', { name: 'Search zones' }).fill('no zone is called this');
    await expect(page.getByText('No results.')).toBeVisible();
    await page.keyboard.press('Escape');

    await nav.getByRole('link', { name: 'Devices', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/devices\\?(.*&)?o=${zone}`));
    await nav.getByRole('link', { name: 'Reports', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/reports\\?(.*&)?o=${zone}`));
    // Each navigation sent a page-view event to the analytics sink (once the page rendered).
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window.__patchwellPageViews ?? [])
            .filter((e) => e.type === 'page_view')
            .map((e) => e.path)
            .slice(-2),
        ),
      )
      .toEqual(['/devices', '/reports']);
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`o=${zone}`));
    await expect(nav.getByRole('button', { name: /^Zone: / })).toContainText(name);
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
    await nav
      .getByRole('button', { name: /menu|navigation/i })
      .first()
      .click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Devices', exact: true })).toBeVisible();
  });
});

test.describe('the console’s content security policy', () => {
  test('no page breaks it, from the sign-in to the devices list', async ({ page }) => {
    // zod tried `new Function` (its JIT) at the first parse, which `script-src 'self'` refuses.
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations?.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await signIn(page);
    await expectShell(page);
    await page.getByRole('banner').getByRole('link', { name: 'Devices', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Devices' })).toBeVisible();
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  });
});
