import { expect, test, type Page } from '@playwright/test';
import { expectShell, mailedLink, signIn, submitSignIn, uniqueEmail } from './helpers';
import { api } from './fleet-helpers';

// The dashboard over the demo's simulated fleet, and a new account's quick start guide once its
// address is verified through the mail the journeys' SMTP capture received (../mail-capture.ts).

type Listed = { data: { id: number; hostname: string; custom_name: string | null }[]; size: number };
type Dashboard = { missing_critical: { days: number; devices: number }; computed_at: string };

const critical = (page: Page, o: number) => api<Listed>(page, `/api/servers?o=${o}&critical_older_than=14&limit=100`);

test.describe('dashboard', () => {
  test("the dashboard's critical figure leads to the right devices", async ({ page }) => {
    await signIn(page);
    const o = await expectShell(page);
    // The demo's simulated devices have reported their patches.
    await expect
      .poll(async () => (await api<Listed>(page, `/api/servers?o=${o}&limit=1`)).size, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(8);
    await page.goto(`/console/dashboard?o=${o}`);
    const figure = page.getByRole('link', { name: /Devices missing critical patches for more than 14 days/ });
    await expect(figure).toBeVisible();
    const dashboard = await api<Dashboard>(page, `/api/reports/dashboard?o=${o}`);
    await expect(figure).toContainText(String(dashboard.missing_critical.devices));

    await figure.click();
    await expect(page).toHaveURL(/\/console\/devices\?.*critical_older_than=14/);
    const listed = await critical(page, o);
    // The figure counts what the list lists (both computed from the same devices' patches).
    expect(listed.size).toBe(dashboard.missing_critical.devices);
    const table = page.getByRole('table', { name: 'Devices' });
    if (listed.size === 0) {
      await expect(table.getByRole('row')).toHaveCount(1);
      return;
    }
    for (const d of listed.data.slice(0, 5)) {
      await expect(table.getByRole('link', { name: d.custom_name || d.hostname, exact: true })).toBeVisible();
    }
    // Each of them has a critical patch pending (the prepatch report's per-device count).
    const prepatch = await api<{ data: { id: number; critical: number }[] }>(
      page,
      `/api/reports/prepatch?o=${o}&severity=critical&limit=100`,
    );
    const withCritical = new Set(prepatch.data.filter((d) => d.critical > 0).map((d) => d.id));
    for (const d of listed.data) expect(withCritical.has(d.id), d.hostname).toBe(true);
  });

  test('a new account follows its verification mail, signs in and starts on the quick start guide', async ({
    page,
  }) => {
    // Sign-up, a mail over SMTP, its link, a sign-in and the guide: more than 30 s on a busy machine.
    test.setTimeout(90_000);
    const email = uniqueEmail('onboarding');
    const password = 'correct horse battery staple';
    await page.goto('/console/signup');
    await page.getByLabel(/first name/i).fill('Grace');
    await page.getByLabel(/last name/i).fill('Hopper');
    await page.getByLabel(/company/i).fill(`Compilers ${Date.now()}`);
    await page.getByLabel(/email/i).fill(email);
    await page.getByLabel(/^password/i).fill(password);
    await page.getByLabel(/confirm/i).fill(password);
    await page.getByLabel(/endpoints/i).fill('25');
    await page.getByRole('button', { name: /sign ?up|create account/i }).click();
    await expect(page).toHaveURL(/\/console\/login\?err=verification_email_sent/);

    // The verification mail, as the loopback SMTP server received it from the server's relay.
    const link = await mailedLink(email, 'verify-email');
    await page.goto(link);
    await page.getByRole('button', { name: /verify/i }).click();
    await expect(page.getByRole('status')).toBeVisible();

    await page.goto('/console/login');
    await submitSignIn(page, email, password);
    const o = await expectShell(page);
    await page.goto(`/console/dashboard?o=${o}`);
    await expect(page).toHaveURL(/\/console\/onboarding/);
    await expect(page.getByRole('heading', { name: 'Quick start guide' })).toBeVisible();
    const steps = await api<{ steps: { key: string; done: boolean }[]; completed: boolean }>(
      page,
      `/api/onboarding?o=${o}`,
    );
    expect(steps.completed).toBe(false);
    expect(steps.steps.filter((s) => s.done).map((s) => s.key)).toEqual(['set_up']);
    await expect(page.getByRole('listitem', { name: '0. Set up' })).toContainText('Done');
    await expect(page.getByRole('listitem', { name: '1. Add a device' })).toContainText('To do');
    await page.getByRole('link', { name: 'Add devices' }).click();
    await expect(page).toHaveURL(/\/console\/devices/);
  });
});
