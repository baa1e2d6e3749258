import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectShell, signIn } from './helpers';
import { api, moveToGroup, newGroup, standingOf, type DeviceRow } from './fleet-helpers';

// Policies against the demo's simulated fleet and the real agent on this machine, through the
// server `npm start` runs: created in the console, run now, results and compliance observed.

const repoRoot = path.resolve(process.cwd(), '..');
const agentBin = path.join(repoRoot, 'packages/agent/bin/patchwell-agent.mjs');

test.describe('policies', () => {
  test('a patch policy created in the console runs now on simulated devices; results arrive and compliance changes', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signIn(page);
    const o = await expectShell(page);
    const patchable = async () =>
      (await api<{ data: DeviceRow[] }>(page, `/api/servers?o=${o}&limit=100`)).data.filter(
        (d) => d.connected && d.pending_patches > 0 && d.hostname !== os.hostname(),
      );
    await expect.poll(async () => (await patchable()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(7);
    const withPatches = await patchable();
    // Devices 4–6 of the list: the other journeys use the first two and the last one, and
    // remediation.spec.ts leaves these out of the zone's long-polling devices it installs on.
    const targets = withPatches.slice(4, 7);
    const groupName = `E2E Patch ${Date.now()}`;
    await moveToGroup(
      page,
      o,
      targets.map((d) => d.id),
      await newGroup(page, o, groupName),
    );

    const policyName = `E2E patch all ${Date.now()}`;
    await page.goto(`/console/manage/policies/create?o=${o}&type=patch`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(policyName);
    await page.getByRole('combobox', { name: 'Target groups' }).click();
    await page.getByRole('option', { name: groupName }).click();
    await page.keyboard.press('Escape');
    const scheduled = page.getByRole('switch', { name: 'Run on a schedule' });
    if (await scheduled.isChecked()) await scheduled.click({ force: true });
    await page.getByRole('button', { name: 'Preview targeted devices' }).click();
    await expect(page.getByText('This policy targets 3 devices.')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save Policy' }).click();
    // A new policy says what it will do before its first save.
    const review = page.getByRole('dialog', { name: 'Review the new policy' });
    await expect(review.getByRole('row', { name: /^Targets/ })).toContainText(groupName);
    await expect(review.getByRole('row', { name: /^Schedule/ })).toContainText('Runs only when you run it now.');
    await review.getByRole('button', { name: 'Create Policy' }).click();
    await expect(page.getByText(`Success: “${policyName}” was created.`)).toBeVisible();

    const policies = await api<{ data: { id: number; name: string }[] }>(
      page,
      `/api/policies?o=${o}&search=${encodeURIComponent(policyName)}`,
    );
    const policy = policies.data.find((p) => p.name === policyName)!;
    expect(policy).toBeTruthy();

    await page.goto(`/console/manage/policies?o=${o}`);
    await page.getByRole('button', { name: `Actions for ${policyName}` }).click();
    await page.getByRole('menuitem', { name: 'Run now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run now' }).click();
    await expect(page.getByText(`Success: “${policyName}” is running.`)).toBeVisible();

    // The simulated devices install their updates (0.5-3 s each at PATCHWELL_DEMO_SPEED=20) and report back.
    await expect
      .poll(
        async () => {
          const standings = await Promise.all(targets.map((d) => standingOf(page, o, d.id, policy.id)));
          return standings.filter((s) => s?.result && ['success', 'error'].includes(s.result.status)).length;
        },
        { timeout: 120_000, intervals: [1_000] },
      )
      .toBe(3);
    const finished = await Promise.all(targets.map((d) => standingOf(page, o, d.id, policy.id)));
    // A successful install leaves the device compliant; a simulated failure needs attention.
    for (const s of finished)
      expect(s!.compliance).toBe(s!.result!.status === 'success' ? 'compliant' : 'needs_attention');

    await page.goto(`/console/manage/policies/${policy.id}?o=${o}`);
    await page.getByRole('tab', { name: 'Runs and results' }).click();
    await expect(page.getByText(/Completed/i).first()).toBeVisible({ timeout: 20_000 });
  });

  test("a worklet policy's evaluation runs on this machine's real agent after a scan", async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await signIn(page);
    const o = await expectShell(page);
    const info = await api<{ access_key: string }>(page, `/api/info?o=${o}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'patchwell-e2e-worklet-'));
    const state = path.join(dir, 'state.json');
    let agent: ChildProcess | undefined;
    try {
      execFileSync(
        process.execPath,
        [agentBin, 'enroll', '--server', baseURL!, '--key', info.access_key, '--state', state],
        {
          cwd: repoRoot,
          stdio: 'pipe',
        },
      );
      // Without --allow-changes: evaluations are read-only checks and still run.
      agent = spawn(process.execPath, [agentBin, 'run', '--state', state], { cwd: repoRoot, stdio: 'ignore' });
      const hostname = os.hostname();
      const device = await expect
        .poll(
          async () =>
            (
              await api<{ data: DeviceRow[] }>(page, `/api/servers?o=${o}&search=${encodeURIComponent(hostname)}`)
            ).data.find((d) => d.hostname === hostname)?.id ?? 0,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0)
        .then(async () =>
          (
            await api<{ data: DeviceRow[] }>(page, `/api/servers?o=${o}&search=${encodeURIComponent(hostname)}`)
          ).data.find((d) => d.hostname === hostname)!,
        );
      const groupId = await newGroup(page, o, `E2E Worklet ${Date.now()}`);
      await moveToGroup(page, o, [device.id], groupId);
      const name = `E2E worklet ${Date.now()}`;
      const created = await page.request.post(`/api/policies?o=${o}`, {
        data: {
          name,
          policy_type_name: 'custom',
          server_groups: [groupId],
          schedule_days: 0,
          schedule_time: '02:00',
          use_scheduled_timezone: true,
          notes: '',
          configuration: {
            os_family: 'Linux',
            // True on this machine: the evaluation really runs here.
            evaluation_code: `test "$(hostname)" = "${hostname}" && echo "this is ${hostname}"`,
            remediation_code: 'echo nothing to do',
            auto_reboot: false,
          },
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const policyId = ((await created.json()) as { id: number }).id;

      await page.goto(`/console/devices/${device.id}?o=${o}`);
      await page.getByRole('button', { name: 'Scan', exact: true }).click();
      await expect
        .poll(async () => (await standingOf(page, o, device.id, policyId))?.compliance, { timeout: 60_000 })
        .toBe('compliant');
      await page.getByRole('tab', { name: 'Policies' }).click();
      // A device's status with one policy is worded as the family words it (core POLICY_STATUS_LABELS).
      await expect(page.getByRole('button', { name: new RegExp(name) })).toContainText('Up to date');
    } finally {
      if (agent?.pid) process.kill(agent.pid, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
