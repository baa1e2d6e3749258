import { expect, test } from '@playwright/test';
import { NOT_FOUND_HEADING, concretePaths, signedInRoutes } from './console-pages';
import { expectShell, signIn } from './helpers';

// A typed or bookmarked address carries no `o`: the console picks the zone (the stored
// current zone, else the first) and shows the page, never the 404 page (issue 10, defect 8).
test('every signed-in route opened without o lands on its page in the chosen zone', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const o = await expectShell(page);
  const routes = signedInRoutes(await concretePaths(page, o));
  expect(routes.length).toBeGreaterThan(60);
  // Every route is a full page load (sign-in check, zone, loaders): its budget grows with the
  // console's routes, which outgrew a fixed 240 s on CI's busy cores.
  test.setTimeout(120_000 + routes.length * 5_000);
  const failures: string[] = [];
  for (const route of routes) {
    await page.goto(`/console${route}`);
    // A page renders only once its loaders (and their redirects) are done.
    await expect(page.getByRole('heading').first()).toBeVisible();
    const url = new URL(page.url());
    const notFound = await page.getByRole('heading', { name: NOT_FOUND_HEADING }).count();
    if (notFound || url.pathname.includes('/console/console') || url.searchParams.get('o') !== String(o)) {
      failures.push(`${route} → ${url.pathname}${url.search}${notFound ? ' (404 page)' : ''}`);
    }
  }
  expect(failures).toEqual([]);
});
