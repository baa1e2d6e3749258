import os from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { expectShell, signIn } from './helpers';
import { api, moveToGroup, newGroup, standingOf, type DeviceRow } from './fleet-helpers';

// Manual approval and cloning, in the console, against the demo's simulated fleet.

type ApprovalGroup = {
  policy_id: number;
  policy_name: string;
  pending: { id: number; software: { display_name: string; version: string } }[];
};

async function createPatchPolicy(page: Page, o: number, name: string, groupId: number, patchRule: 'all' | 'manual') {
  const res = await page.request.post(`/api/policies?o=${o}`, {
    data: {
      name,
      policy_type_name: 'patch',
      server_groups: [groupId],
      schedule_days: 0,
      schedule_time: '02:00',
      use_scheduled_timezone: true,
      notes: '',
      configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: patchRule },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function runNow(page: Page, o: number, policyId: number) {
  const res = await page.request.post(`/api/policies/${policyId}/action?o=${o}`, {
    data: { action: 'remediateAll' },
  });
  expect(res.status(), await res.text()).toBe(202);
}

test.describe('policy approval and cloning', () => {
  test('a manual-approval policy lists its patches; the approved one installs at the next run', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page);
    const o = await expectShell(page);
    // A simulated device with patches, in a group of its own: the last of the list, which
    // the other journeys (the first devices) leave alone.
    const candidate = async () =>
      (await api<{ data: DeviceRow[] }>(page, `/api/servers?o=${o}&limit=100`)).data
        .filter((d) => d.connected && d.pending_patches > 1 && d.hostname !== os.hostname())
        .at(-1);
    await expect.poll(async () => (await candidate())?.id ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const device = (await candidate())!;
    const groupId = await newGroup(page, o, `E2E Approval ${Date.now()}`);
    await moveToGroup(page, o, [device.id], groupId);
    const name = `E2E manual approval ${Date.now()}`;
    const policyId = await createPatchPolicy(page, o, name, groupId, 'manual');

    // The first run finds the device's patches and installs nothing: they wait for a decision.
    await runNow(page, o, policyId);
    await expect
      .poll(async () => (await standingOf(page, o, device.id, policyId))?.compliance, { timeout: 30_000 })
      .toBe('pending');
    const waiting = (await api<{ data: ApprovalGroup[] }>(page, `/api/policy-manual-approval?o=${o}`)).data.find(
      (g) => g.policy_id === policyId,
    )!;
    expect(waiting.pending.length).toBeGreaterThan(1);
    const chosen = waiting.pending[0]!.software;

    await page.goto(`/console/policy-manual-approval?o=${o}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Manual Approval' })).toBeVisible();
    const section = page.getByRole('region', { name });
    await expect(section.getByRole('row')).toHaveCount(waiting.pending.length + 1);
    await section
      .getByRole('button', { name: `Approve ${chosen.display_name}`, exact: true })
      .first()
      .click();
    await expect(page.getByText(`Success: ${chosen.display_name} ${chosen.version} was approved.`)).toBeVisible();
    await expect(section.getByRole('row')).toHaveCount(waiting.pending.length);

    // The next run installs the approved patch, and only it.
    await runNow(page, o, policyId);
    await expect
      .poll(async () => (await standingOf(page, o, device.id, policyId))?.result?.patches ?? [], {
        timeout: 30_000,
      })
      .toEqual([chosen.display_name]);
    await expect
      .poll(async () => (await standingOf(page, o, device.id, policyId))?.result?.status, {
        timeout: 120_000,
        intervals: [1_000],
      })
      .toMatch(/^(success|error)$/);
  });

  test('a cloned policy starts inactive and asks to be reviewed', async ({ page }) => {
    await signIn(page);
    const o = await expectShell(page);
    const groupId = await newGroup(page, o, `E2E Clone ${Date.now()}`);
    const name = `E2E to clone ${Date.now()}`;
    await createPatchPolicy(page, o, name, groupId, 'all');

    await page.goto(`/console/manage/policies?o=${o}`);
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Clone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clone policy' });
    await expect(dialog.getByRole('textbox', { name: 'Name of the copy' })).toHaveValue(`Clone of ${name}`);
    await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
    await expect(page.getByText(`Success: “Clone of ${name}” was cloned. Review it before activating it.`)).toBeVisible(
      {
        timeout: 30_000,
      },
    );

    const clone = (
      await api<{ data: { id: number; name: string; status: string }[] }>(
        page,
        `/api/policies?o=${o}&search=${encodeURIComponent(`Clone of ${name}`)}`,
      )
    ).data.find((p) => p.name === `Clone of ${name}`)!;
    expect(clone.status).toBe('inactive');
    await page.goto(`/console/manage/policies/${clone.id}?o=${o}`);
    await expect(
      page.getByText('This policy is a clone: review its configuration and save it before activating it.'),
    ).toBeVisible();
  });
});
