import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { expectShell, signIn } from './helpers';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the login page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/console/login');
  await expect(page.getByLabel(/email/i)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the signed-in shell has no serious accessibility violations', async ({ page }) => {
  await signIn(page);
  await expectShell(page);
  expect(await seriousViolations(page)).toEqual([]);
});
