import { expect, test } from '@playwright/test';
import { expectShell, signIn } from './helpers';

// On a phone the header keeps Help and the account menu on screen (issue 10, defect 14).
test.use({ viewport: { width: 390, height: 844 } });

test('at 390 px wide, Help and the account menu are on screen and open', async ({ page }) => {
  await signIn(page);
  await expectShell(page);
  const banner = page.getByRole('banner');
  for (const name of ['Help', 'Account menu']) {
    const button = banner.getByRole('button', { name, exact: true });
    await expect(button).toBeInViewport({ ratio: 1 });
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // Nothing in the header is pushed past the right edge of the screen.
  expect(await banner.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  await banner.getByRole('button', { name: 'Help', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: /Knowledge Base/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await banner.getByRole('button', { name: 'Account menu', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
});
