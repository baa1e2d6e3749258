import { expect, test, type Page } from '@playwright/test';
import { expectShell, signIn } from './helpers';

// The dashboard and the devices list opened by address come drawn by the server (decision
// 0030): readable before any script runs, then taken over by the console without being drawn
// again, over the demo's simulated fleet.

type Listed = { data: { display_name: string; custom_name: string | null; name: string }[]; size: number };

async function signedInZone(page: Page): Promise<number> {
  await signIn(page);
  const o = await expectShell(page);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/servers?o=${o}&limit=1`)).json()) as Listed).size, {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(8);
  return o;
}

test.describe('first paint drawn by the server', () => {
  test('the devices list and the dashboard read without scripts', async ({ page, browser }) => {
    const o = await signedInZone(page);
    const listed = (await (await page.request.get(`/api/servers?o=${o}&page=0&limit=25`)).json()) as Listed;
    const first = listed.data[0]!;
    const noScripts = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    try {
      const still = await noScripts.newPage();
      await still.goto(`/console/devices?o=${o}`);
      const table = still.getByRole('table', { name: 'Devices' });
      await expect(
        table.getByRole('link', { name: first.custom_name || first.display_name || first.name, exact: true }),
      ).toBeVisible();
      await expect(table.getByRole('row')).toHaveCount(Math.min(listed.size, 25) + 1);
      await expect(still.getByRole('banner')).toBeVisible();
      await expect(still.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible();

      await still.goto(`/console/dashboard?o=${o}`);
      await expect(
        still.getByRole('link', { name: /Devices missing critical patches for more than 14 days/ }),
      ).toBeVisible();
    } finally {
      await noScripts.close();
    }
  });

  test('the console takes the drawn page over as it is: no second drawing, no request for its data, no error', async ({
    page,
  }) => {
    const o = await signedInZone(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    // Counts what leaves the root element: hydrating a page that does not match draws it anew.
    await page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const record of records) {
          if ((record.target as Element).id === 'root')
            window.__rootRemovals = (window.__rootRemovals ?? 0) + record.removedNodes.length;
        }
      }).observe(document, { childList: true, subtree: true });
    });

    for (const path of ['/console/devices', '/console/dashboard']) {
      // The page before (the console after signing in) may still be asking for something.
      await page.goto('about:blank');
      asked.length = 0;
      await page.goto(`${path}?o=${o}`);
      await expect(page).toHaveTitle(/· Patchwell$/);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => window.__rootRemovals ?? 0), path).toBe(0);
      expect(
        asked.filter((p) => p.startsWith('/api/')),
        path,
      ).toEqual([]);
    }

    // Hydrated: the row menus and links answer.
    await page.goto(`/console/devices?o=${o}`);
    await page
      .getByRole('table', { name: 'Devices' })
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await expect(page.getByRole('menuitem', { name: 'Export CSV' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('a press on the drawn page before its scripts have arrived is answered once the console has taken it over', async ({
    page,
  }) => {
    const o = await signedInZone(page);
    // The console's scripts are held until the row menu has been pressed.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route('**/console/assets/*.js', async (route) => {
      held += 1;
      await released;
      await route.continue();
    });
    await page.goto(`/console/devices?o=${o}`, { waitUntil: 'domcontentloaded' });
    await page
      .getByRole('table', { name: 'Devices' })
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await expect.poll(() => held).toBeGreaterThan(0);
    // Not yet the console's: it sets the page's title.
    await expect(page).toHaveTitle('Patchwell');
    await expect(page.getByRole('menuitem', { name: 'Export CSV' })).toHaveCount(0);

    release();
    await expect(page).toHaveTitle(/· Patchwell$/);
    await expect(page.getByRole('menuitem', { name: 'Export CSV' })).toBeVisible();
    await page.unroute('**/console/assets/*.js');
  });
});
