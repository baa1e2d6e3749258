import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { api, type DeviceRow } from './fleet-helpers';
import { expectShell, signIn } from './helpers';

// Vulnerability remediation end to end (issue 11): a Qualys export naming simulated devices
// and a host Patchwell does not know is uploaded in the console, matched, accepted, its tasks
// executed; the simulated agents install the patches and the CVE view shows them remediated.

type ZoneDevice = DeviceRow & { ip_addrs_private: string[] };
type DeviceDetail = { id: number; hostname: string; detail: { fqdn: string | null } | null };
type DevicePackage = { name: string; patch: { severity: string; cves: string[] } | null };
type Target = { device: ZoneDevice; fqdn: string | null; patch: string; severity: string; cves: string[] };

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'none', 'unknown'];
/** Qualys writes levels 1 (minimal) to 5 (urgent). */
const QUALYS_LEVEL: Record<string, string> = { critical: '5', high: '4', medium: '3', low: '2' };

/**
 * Two or three simulated devices with pending patches that carry CVEs, of the ones commands
 * reach at once: the simulator keeps a long-poll open for the first four devices of each zone
 * (demo.fleet.ts `DEMO_LONG_POLL_DEVICES`), the lowest-numbered hostnames of the zone; the
 * others pick a command up at their next check-in, up to a minute later. Left out are the
 * devices other journeys install on: the 5th to 7th patchable device of the list
 * (policies.spec.ts) and the last one with more than one patch (policy-approval-clone.spec.ts).
 */
async function pickTargets(page: Page, o: number): Promise<Target[]> {
  const numberOf = (d: ZoneDevice) => Number(/(\d+)$/.exec(d.hostname)?.[1] ?? Number.MAX_SAFE_INTEGER);
  const patchable = async () =>
    (await api<{ data: ZoneDevice[] }>(page, `/api/servers?o=${o}&limit=100`)).data.filter(
      (d) => d.connected && d.pending_patches > 0 && d.hostname !== os.hostname(),
    );
  await expect.poll(async () => (await patchable()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
  const list = await patchable();
  const taken = new Set([...list.slice(4, 7).map((d) => d.id), list.filter((d) => d.pending_patches > 1).at(-1)?.id]);
  const zoneFirstFour = [...list]
    .filter((d) => /\d$/.test(d.hostname))
    .sort((a, b) => numberOf(a) - numberOf(b))
    .slice(0, 4);
  const targets: Target[] = [];
  for (const device of zoneFirstFour.filter((d) => !taken.has(d.id))) {
    const packages = await api<{ data: DevicePackage[] }>(
      page,
      `/api/servers/${device.id}/packages?o=${o}&needs_update=true&limit=100`,
    );
    const fix = packages.data
      .filter((p) => p.patch && p.patch.cves.length > 0 && p.patch.cves.length <= 5)
      .sort((a, b) => SEVERITY_ORDER.indexOf(a.patch!.severity) - SEVERITY_ORDER.indexOf(b.patch!.severity))[0];
    if (!fix) continue;
    const detail = await api<DeviceDetail>(page, `/api/servers/${device.id}?o=${o}`);
    targets.push({
      device,
      fqdn: detail.detail?.fqdn ?? null,
      patch: fix.name,
      severity: fix.patch!.severity,
      cves: fix.patch!.cves,
    });
  }
  expect(targets.length, 'long-polling simulated devices with patches carrying CVEs').toBeGreaterThanOrEqual(2);
  return targets.slice(0, 3);
}

const quoted = (cells: string[]) => cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');

/**
 * A Qualys VM host-based findings export (its report header, then one row per host and QID):
 * the first device named by its FQDN in DNS, the last by its IP alone, one between by its
 * short name; then a host no device of the zone has.
 */
function qualysCsv(targets: Target[], unknownHost: { ip: string; dns: string; cve: string }): string {
  const header = ['IP', 'DNS', 'NetBIOS', 'FQDN', 'OS', 'QID', 'Title', 'Severity', 'CVE ID', 'CVSS3 Base', 'Solution'];
  const rows = targets.map((t, i) => {
    const ip = t.device.ip_addrs_private[0] ?? '';
    const name = t.device.hostname.toLowerCase();
    const isIpOnly = i > 0 && i === targets.length - 1;
    const dns = i === 0 ? (t.fqdn ?? name).toLowerCase() : isIpOnly ? '' : name;
    const netbios = isIpOnly ? '' : t.device.hostname.toUpperCase();
    return quoted([
      ip,
      dns,
      netbios,
      i === 0 ? (t.fqdn ?? '') : '',
      '',
      String(370100 + i),
      `${t.patch} security update`,
      QUALYS_LEVEL[t.severity] ?? '3',
      t.cves.join(', '),
      i === 0 ? '9.8 (AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H)' : '7.5',
      `Install the latest ${t.patch} update.`,
    ]);
  });
  const unknown = quoted([
    unknownHost.ip,
    unknownHost.dns,
    unknownHost.dns.split('.')[0]!.toUpperCase(),
    unknownHost.dns,
    'Ubuntu 22.04',
    '370199',
    'OpenSSH regreSSHion',
    '5',
    unknownHost.cve,
    '8.1',
    'Upgrade OpenSSH.',
  ]);
  return [quoted(['Scan Results', '11/25/2026 at 02:00:11 (GMT)']), '', quoted(header), ...rows, unknown, ''].join(
    '\r\n',
  );
}

test.describe('vulnerability remediation', () => {
  test('a Qualys scan uploaded in the console is matched, accepted and executed; devices and the CVE view become remediated', async ({
    page,
  }, testInfo) => {
    test.setTimeout(300_000);
    await signIn(page);
    const o = await expectShell(page);
    const targets = await pickTargets(page, o);
    const stamp = Date.now();
    const unknownHost = { ip: '10.254.0.99', dns: `e2e-unknown-${stamp}.corp.example.com`, cve: 'CVE-2024-6387' };
    const fileName = `qualys-e2e-${stamp}.csv`;
    const filePath = testInfo.outputPath(fileName);
    writeFileSync(filePath, qualysCsv(targets, unknownHost));

    // Upload through the dialog: provider (its expected format shows), file, the steps, Finish.
    await page.goto(`/console/manage/remediations?o=${o}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Remediations' })).toBeVisible();
    await page.getByRole('button', { name: 'Upload Scan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Scan' });
    await dialog.getByRole('combobox', { name: 'Provider' }).selectOption({ label: 'Qualys' });
    await expect(dialog.getByText('Severity: 5 critical, 4 high, 3 medium, 2 and 1 low.')).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'CSV file' }).click();
    await (await chooser).setFiles(filePath);
    const steps = dialog.getByRole('list', { name: 'Upload steps' });
    await expect(steps.getByRole('listitem').filter({ hasText: 'File verified' })).toContainText('done');
    await expect(dialog.getByText(`${fileName} is ready to upload.`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(steps.getByRole('listitem').filter({ hasText: 'Processing begun' })).toContainText('done');
    await expect(dialog.getByText(/^The file was uploaded\./)).toBeVisible();
    await dialog.getByRole('button', { name: 'Finish' }).click();

    // The batch's page: built against this zone's devices, awaiting approval.
    await expect(page).toHaveURL(/\/console\/manage\/remediations\/\d+\?/);
    const batchId = Number(/remediations\/(\d+)/.exec(page.url())![1]);
    await expect(page.getByRole('heading', { level: 1, name: `Batch ${fileName}` })).toBeVisible();
    await expect(page.getByText('Awaiting approval')).toBeVisible({ timeout: 30_000 });
    const vulnerabilities = page.getByRole('table', { name: 'Vulnerabilities of this batch' });
    for (const cve of targets.flatMap((t) => t.cves)) await expect(vulnerabilities).toContainText(cve);

    // The host no device has: on the Unknown Hosts tab, and as a potential issue.
    const sections = page.getByRole('navigation', { name: 'Batch sections' });
    await sections.getByRole('link', { name: 'Unknown Hosts' }).click();
    const unknownRow = page
      .getByRole('table', { name: 'Hosts of the file with no device in this zone' })
      .getByRole('row')
      .filter({ hasText: unknownHost.dns });
    await expect(unknownRow).toContainText(unknownHost.ip);
    await expect(unknownRow).toContainText(unknownHost.cve);
    await page.getByRole('link', { name: 'All potential issues of this batch' }).click();
    const issueRows = page.getByRole('table', { name: 'Potential issues' }).getByRole('row');
    await expect(issueRows).toHaveCount(2);
    await expect(issueRows.filter({ hasText: unknownHost.dns })).toContainText('Unknown host');

    // Accept on the solutions tab: one task per patch.
    await page.goBack();
    await sections.getByRole('link', { name: 'Solutions' }).click();
    const solutions = page.getByRole('table', { name: 'Solutions of this batch' });
    for (const t of targets) await expect(solutions).toContainText(t.patch);
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await page.getByRole('dialog', { name: 'Accept this batch?' }).getByRole('button', { name: 'Accept' }).click();
    const patches = new Set(targets.map((t) => t.patch));
    await expect(
      page.getByText(
        `Success: The batch was accepted and ${patches.size} ${patches.size === 1 ? 'task was' : 'tasks were'} created.`,
      ),
    ).toBeVisible();

    // Execute each task from the batch's task list.
    const tasks = page.getByRole('table', { name: 'Tasks of this batch' });
    await expect(tasks.getByRole('row')).toHaveCount(patches.size + 1);
    const taskIds = (
      await api<{ data: { id: number }[] }>(page, `/api/orgs/${o}/tasks?o=${o}&batch_id=${batchId}`)
    ).data.map((t) => t.id);
    expect(taskIds).toHaveLength(patches.size);
    for (const id of taskIds) {
      await tasks.getByRole('button', { name: `Actions for task ${id}` }).click();
      await page.getByRole('menuitem', { name: 'Execute' }).click();
      await page.getByRole('dialog', { name: 'Execute this task?' }).getByRole('button', { name: 'Execute' }).click();
      await expect(page.getByText(`Success: Task ${id} is running.`)).toBeVisible();
    }

    // The simulated agents install the patches (0.5-3 s each at PATCHWELL_DEMO_SPEED=20); each task's page follows its jobs.
    for (const id of taskIds) {
      await page.goto(`/console/manage/tasks/tasks/${id}?o=${o}`);
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Task ${id}: `) })).toBeVisible();
      const facts = page.getByRole('table', { name: 'Task details' });
      await expect(facts.getByRole('row', { name: /^Overall status/ })).toContainText('Executed', {
        timeout: 180_000,
      });
      const jobs = page.getByRole('table', { name: 'Jobs per device' }).getByRole('row');
      for (const row of await jobs.filter({ has: page.getByRole('link') }).all()) {
        await expect(row).toContainText('Success');
        await expect(row).toContainText('Remediated');
      }
    }
    const jobs = (
      await Promise.all(
        taskIds.map((id) =>
          api<{ data: { device_id: number; status: string; remediation_status: string }[] }>(
            page,
            `/api/orgs/${o}/tasks/${id}/jobs?o=${o}`,
          ),
        ),
      )
    ).flatMap((j) => j.data);
    expect(jobs.map((j) => j.device_id).sort()).toEqual(targets.map((t) => t.device.id).sort());
    expect(jobs.every((j) => j.status === 'success' && j.remediation_status === 'remediated')).toBe(true);

    // The CVE view: the device is remediated, and the counts moved.
    const [first] = targets;
    const cve = first!.cves[0]!;
    await page.goto(`/console/manage/remediations?o=${o}`);
    await page.getByRole('searchbox', { name: 'Search CVE id or title' }).fill(cve);
    const cves = page.getByRole('table', { name: 'CVEs in this zone' });
    await expect(cves.getByRole('row')).toHaveCount(2);
    await cves.getByRole('link', { name: cve, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: cve })).toBeVisible();
    const cveFacts = page.getByRole('table', { name: 'CVE facts' });
    await expect(cveFacts.getByRole('row', { name: /^Remediated/ })).toContainText('1');
    await expect(cveFacts.getByRole('row', { name: /^Affected/ })).toContainText('0');
    const deviceRow = page
      .getByRole('table', { name: 'Devices and why each matched' })
      .getByRole('row')
      .filter({ hasText: first!.device.hostname });
    await expect(deviceRow).toContainText('Remediated');
    await expect(deviceRow).toContainText(`Qualys: ${fileName}, line 4`);
    await expect(deviceRow).toContainText('matched by FQDN');
  });
});
