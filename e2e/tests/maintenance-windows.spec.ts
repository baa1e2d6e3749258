import { expect, test } from '@playwright/test';
import { MAINTENANCE_WINDOW_TEXTS } from '../../packages/core/src/maintenance/maintenance-windows.schema';
import { api, newGroup } from './fleet-helpers';
import { expectShell, signIn } from './helpers';

/**
 * /manage/maintenance-windows in Chromium: a window is refused with the schema's texts, then
 * created for a group of its own, open all week; it is edited to a one-off window and deleted
 * from the row's menu.
 */
test('a maintenance window is created, edited and deleted', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const o = await expectShell(page);
  // A group of its own, empty: every demo device is another journey's, and the window's
  // effect on devices is the engine's tests' (maintenance-windows.test.ts, device details).
  const groupName = `E2E Window ${Date.now()}`;
  await newGroup(page, o, groupName);

  await page.goto(`/console/manage/maintenance-windows?o=${o}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Maintenance Windows' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Window' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Window' });
  const windowName = `All week ${Date.now()}`;
  await dialog.getByRole('textbox', { name: 'Name' }).fill(windowName);
  await dialog.getByRole('combobox', { name: 'Device group' }).selectOption({ label: groupName });
  await dialog.getByRole('combobox', { name: 'Timezone' }).selectOption('UTC');
  await dialog.getByRole('combobox', { name: 'Repeats' }).selectOption({ label: 'Weekly' });
  // No day chosen and a duration past a week: both refused, nothing saved.
  await dialog.getByRole('textbox', { name: 'Start time (HH:MM)' }).fill('00:00');
  await dialog.getByRole('textbox', { name: 'Duration (minutes)' }).fill('20000');
  await dialog.getByRole('button', { name: 'Create Window' }).click();
  await expect(dialog.getByText(MAINTENANCE_WINDOW_TEXTS.days)).toBeVisible();
  await expect(dialog.getByText(MAINTENANCE_WINDOW_TEXTS.duration)).toBeVisible();

  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
    await dialog.getByRole('checkbox', { name: day }).check();
  await dialog.getByRole('textbox', { name: 'Duration (minutes)' }).fill('1440');
  await dialog.getByRole('button', { name: 'Create Window' }).click();
  await expect(page.getByText('Maintenance window saved.')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('table', { name: 'Maintenance Windows' }).getByRole('row').filter({ hasText: windowName });
  await expect(row).toContainText(groupName);
  await expect(row).toContainText('Mon, Tue, Wed, Thu, Fri, Sat, Sun at 00:00 for 24 h');
  await expect(row).toContainText('Open now');

  const listed = await api<{ data: { name: string; is_open: boolean }[] }>(page, `/api/maintenance-windows?o=${o}`);
  expect(listed.data.find((w) => w.name === windowName)?.is_open).toBe(true);

  await page.goto(`/console/manage/maintenance-windows?o=${o}`);
  // Edit: a one-off window ending before it starts is refused, then one in 2030 is saved.
  await row.getByRole('button', { name: `Actions: ${windowName}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Window' });
  await edit.getByRole('combobox', { name: 'Repeats' }).selectOption({ label: 'One-off' });
  await edit.getByLabel('Starts').fill('2030-01-02T10:00');
  await edit.getByLabel('Ends').fill('2030-01-02T09:00');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText(MAINTENANCE_WINDOW_TEXTS.endAfterStart)).toBeVisible();
  await edit.getByLabel('Ends').fill('2030-01-02T12:00');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('2030-01-02 10:00 → 2030-01-02 12:00');
  await expect(row).not.toContainText('Open now');

  // Delete, confirmed: the row goes, and the device has no window any more.
  await row.getByRole('button', { name: `Actions: ${windowName}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete maintenance window' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Maintenance window deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  const after = await api<{ data: { name: string }[] }>(page, `/api/maintenance-windows?o=${o}`);
  expect(after.data.map((w) => w.name)).not.toContain(windowName);
});
