import { expect, test } from '@playwright/test';
import { concretePaths, mainPages, openTyped, signedInRoutes } from './console-pages';
import { expectShell, signIn } from './helpers';

// A typed or bookmarked address carries no `o`: the console picks the zone (the stored
// current zone, else the first) and shows the page, never the 404 page (issue 10, defect 8).
// The main pages are opened that way by the accessibility walk; this walks every other
// signed-in route (current and legacy). Its name sorts right after the accessibility walk's,
// so the two workers start the two longest journeys first.
test('every signed-in route opened without o lands on its page in the chosen zone', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const o = await expectShell(page);
  const concrete = await concretePaths(page, o);
  const walkedForAccessibility = new Set(mainPages(concrete));
  const routes = signedInRoutes(concrete);
  expect(routes.length).toBeGreaterThan(60);
  const rest = routes.filter((r) => !walkedForAccessibility.has(r));
  // Every route is a full page load (sign-in check, zone, loaders): its budget grows with the
  // console's routes, which outgrew a fixed 240 s on CI's busy cores.
  test.setTimeout(120_000 + rest.length * 5_000);
  const failures: string[] = [];
  for (const route of rest) {
    const landing = await openTyped(page, route, o);
    if (landing) failures.push(landing);
  }
  expect(failures).toEqual([]);
});
