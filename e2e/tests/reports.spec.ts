import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectShell, signIn } from './helpers';

// Issue 12's journeys: a change an administrator makes is in the activity log (and the
// device's own activity tab), and a requested data extract is built and downloaded.

type DeviceRow = { id: number; hostname: string };

async function firstDevice(page: Page, o: number): Promise<DeviceRow> {
  let device: DeviceRow | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/servers?o=${o}&limit=1&sort=name:asc`);
        device = ((await res.json()) as { data: DeviceRow[] }).data[0];
        return device?.id ?? 0;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  return device!;
}

/** Saves `notes` on the device's page, as an administrator does. */
async function writeNotes(page: Page, o: number, deviceId: number, notes: string) {
  await page.goto(`/console/devices/${deviceId}?o=${o}`);
  await page.getByRole('textbox', { name: 'Notes' }).fill(notes);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Success: The device has been saved.')).toBeVisible();
}

test.describe('reports', () => {
  test('a change an administrator makes is in the activity log, and in the device’s activity tab', async ({ page }) => {
    await signIn(page);
    const o = await expectShell(page);
    const device = await firstDevice(page, o);
    const notes = `e2e activity ${Date.now()}`;
    await writeNotes(page, o, device.id, notes);

    await page.goto(`/console/reports/activity-log?o=${o}`);
    const log = page.getByRole('table', { name: 'Activity log' });
    const row = log.getByRole('row').filter({ hasText: notes });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('device.update');
    await expect(row).toContainText('demo@patchwell.local');

    // The device's tab lists the same event and leads to the log filtered to the device.
    await page.goto(`/console/devices/${device.id}?o=${o}&tab=activity`);
    await expect(page.getByRole('table', { name: 'Activity' }).getByRole('row').filter({ hasText: notes })).toHaveCount(
      1,
    );
    await page.getByRole('link', { name: 'Open in the activity log' }).click();
    await expect(page).toHaveURL(new RegExp(`object_type=device&object_id=${device.id}`));
    await expect(log.getByRole('row').filter({ hasText: notes })).toHaveCount(1);
  });

  test('a requested data extract is built, then downloaded as CSV with the zone’s rows', async ({ page }) => {
    await signIn(page);
    const o = await expectShell(page);
    const device = await firstDevice(page, o);
    const notes = `e2e extract ${Date.now()}`;
    await writeNotes(page, o, device.id, notes);

    await page.goto(`/console/reports/data-extracts?o=${o}`);
    const form = page.getByRole('form', { name: 'Request Extract' });
    await form.getByLabel('Data').selectOption({ label: 'Activity' });
    await form.getByLabel('Date range').selectOption({ label: 'Today' });
    await form.getByRole('button', { name: 'Request Extract' }).click();
    await expect(page.getByText('Your extract was requested. It appears below when it is ready.')).toBeVisible();

    // The table follows the build until the newest extract offers its download.
    const download = page.getByRole('link', { name: /^Download Activity extract \d+$/ }).first();
    await expect(download).toBeVisible({ timeout: 20_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const csv = readFileSync((await file.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^Time,/);
    expect(csv).toContain(notes);
    // The table's row count is the file's.
    const newest = page.getByRole('table', { name: 'Data extracts' }).getByRole('row').nth(1);
    await expect(newest.getByRole('cell', { name: String(lines.length - 1), exact: true })).toBeVisible();
  });
});
