import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectShell, signIn } from './helpers';

// The demo's simulated devices (PATCHWELL_DEMO_DEVICES, default 32) and the real agent on this
// machine, against the server `npm start` runs.

const repoRoot = path.resolve(process.cwd(), '..');
const agentBin = path.join(repoRoot, 'packages/agent/bin/patchwell-agent.mjs');

type DeviceRow = { id: number; hostname: string; name: string; display_name: string; custom_name: string | null };

async function zoneDevices(page: Page, o: number, query = ''): Promise<{ data: DeviceRow[]; size: number }> {
  const res = await page.request.get(`/api/servers?o=${o}&limit=100${query}`);
  expect(res.status()).toBe(200);
  return res.json();
}

const label = (d: DeviceRow) => d.custom_name || d.display_name || d.name || d.hostname;

test.describe('devices', () => {
  test('the simulated demo devices appear in /devices', async ({ page }) => {
    await signIn(page);
    const o = await expectShell(page);
    await expect.poll(async () => (await zoneDevices(page, o)).size, { timeout: 20_000 }).toBeGreaterThanOrEqual(8);
    const { data } = await zoneDevices(page, o);
    await page.goto(`/console/devices?o=${o}`);
    const table = page.getByRole('table', { name: 'Devices' });
    await expect(table.getByRole('link', { name: label(data[0]!), exact: true })).toBeVisible();
  });

  test('the real agent enrols this machine, reports its packages and runs a scan from the console', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await signIn(page);
    const o = await expectShell(page);
    const info = await (await page.request.get(`/api/info?o=${o}`)).json();
    expect(info.access_key).toBeTruthy();

    const dir = mkdtempSync(path.join(os.tmpdir(), 'patchwell-e2e-agent-'));
    const state = path.join(dir, 'state.json');
    let agent: ChildProcess | undefined;
    try {
      execFileSync(
        process.execPath,
        [agentBin, 'enroll', '--server', baseURL!, '--key', info.access_key, '--state', state],
        { cwd: repoRoot, stdio: 'pipe' },
      );
      agent = spawn(process.execPath, [agentBin, 'run', '--state', state], { cwd: repoRoot, stdio: 'ignore' });

      const hostname = os.hostname();
      const dpkgLines = execFileSync('dpkg-query', ['-W']).toString().trim().split('\n').length;
      const mine = await expect
        .poll(
          async () => {
            const found = (await zoneDevices(page, o, `&search=${encodeURIComponent(hostname)}`)).data.find(
              (d) => d.hostname === hostname,
            );
            if (!found) return 0;
            return (await (await page.request.get(`/api/servers/${found.id}?o=${o}`)).json()).package_count;
          },
          { timeout: 30_000 },
        )
        .toBeGreaterThan(100)
        .then(() => zoneDevices(page, o, `&search=${encodeURIComponent(hostname)}`));
      const device = mine.data.find((d) => d.hostname === hostname)!;
      const detail = await (await page.request.get(`/api/servers/${device.id}?o=${o}`)).json();
      // dpkg-query -W also lists removed packages whose configuration files remain.
      expect(detail.package_count).toBeLessThanOrEqual(dpkgLines);
      expect(detail.package_count).toBeGreaterThan(dpkgLines * 0.9);

      await page.goto(`/console/devices?o=${o}`);
      await expect(page.getByRole('link', { name: label(device), exact: true })).toBeVisible();
      await page.getByRole('link', { name: label(device), exact: true }).click();
      await expect(page.getByRole('heading', { name: label(device) }).first()).toBeVisible();
      await expect(page.getByText(String(detail.package_count), { exact: true }).first()).toBeVisible();

      await page.getByRole('button', { name: 'Scan', exact: true }).click();
      await page.getByRole('tab', { name: 'Command history' }).click();
      const history = page.getByRole('table', { name: 'Command history' });
      await expect(history.getByText('Success', { exact: true }).first()).toBeVisible({ timeout: 45_000 });
    } finally {
      if (agent?.pid) process.kill(agent.pid, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bulk actions tag and group two simulated devices, and the export lists the devices', async ({ page }) => {
    await signIn(page);
    const o = await expectShell(page);
    await expect.poll(async () => (await zoneDevices(page, o)).size, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const groupName = `E2E Group ${Date.now()}`;
    const created = await page.request.post(`/api/servergroups?o=${o}`, { data: { name: groupName } });
    expect(created.status()).toBeLessThan(300);
    const tag = `e2e-${Date.now()}`;

    await page.goto(`/console/devices?o=${o}&limit=100`);
    const table = page.getByRole('table', { name: 'Devices' });
    const sorted = (await zoneDevices(page, o)).data.filter((d) => d.hostname !== os.hostname());
    const [a, b] = [sorted[0]!, sorted[1]!];
    await expect(table.getByRole('link', { name: label(a), exact: true })).toBeVisible();
    await page.getByRole('checkbox', { name: `Select ${label(a)}`, exact: true }).check();
    await page.getByRole('checkbox', { name: `Select ${label(b)}`, exact: true }).check();

    await page.getByRole('button', { name: 'Bulk actions' }).click();
    await page.getByRole('menuitem', { name: 'Apply tags' }).click();
    const tagsDialog = page.getByRole('dialog', { name: 'Apply tags' });
    await tagsDialog.getByRole('textbox', { name: /Tags/ }).fill(tag);
    await tagsDialog.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('Success: 2 devices updated.')).toBeVisible();

    await page.getByRole('checkbox', { name: `Select ${label(a)}`, exact: true }).check();
    await page.getByRole('checkbox', { name: `Select ${label(b)}`, exact: true }).check();
    await page.getByRole('button', { name: 'Bulk actions' }).click();
    await page.getByRole('menuitem', { name: 'Assign to group' }).click();
    const groupDialog = page.getByRole('dialog', { name: 'Assign to group' });
    await groupDialog.getByRole('combobox', { name: 'Group' }).selectOption({ label: groupName });
    await groupDialog.getByRole('button', { name: 'Assign' }).click();

    for (const d of [a, b]) {
      const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: label(d), exact: true }) });
      await expect(row).toContainText(tag);
      await expect(row).toContainText(groupName);
    }

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    const csv = readFileSync((await download.path())!, 'utf8');
    for (const d of sorted) expect(csv).toContain(d.hostname);
  });
});
