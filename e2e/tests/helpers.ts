import { expect, type Page } from '@playwright/test';
import { mailsTo } from '../mail-capture';

/** The demo account `npm start` creates (PATCHWELL_DEMO on). */
export const DEMO = { email: 'demo@patchwell.local', password: 'patchwell-demo-2026' };

/** Fills and submits the login form of the page already open. */
export async function submitSignIn(page: Page, email = DEMO.email, password = DEMO.password) {
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
}

export async function signIn(page: Page, email = DEMO.email, password = DEMO.password, path = '/console/login') {
  await page.goto(path);
  await submitSignIn(page, email, password);
}

/** Waits until the signed-in shell shows, and returns the zone id in `o`. */
export async function expectShell(page: Page): Promise<number> {
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page).toHaveURL(/[?&]o=\d+/);
  return Number(new URL(page.url()).searchParams.get('o'));
}

export function uniqueEmail(prefix = 'e2e') {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

/**
 * The newest link to the console page `page` (`/console/<page>?token=…`) in a mail to `to`, as
 * the journeys' loopback SMTP server received it from the server (../mail-capture.ts).
 */
export async function mailedLink(to: string, page: string): Promise<string> {
  const pattern = new RegExp(`https?://\\S+/console/${page}\\?token=[\\w%-]+`);
  let link = '';
  await expect(async () => {
    const texts = await mailsTo(process.env.E2E_MAIL_DIR!, to);
    link =
      texts
        .map((text) => pattern.exec(text)?.[0] ?? '')
        .filter(Boolean)
        .at(-1) ?? '';
    expect(link, `a mail to ${to} linking to /console/${page}`).not.toBe('');
  }).toPass({ timeout: 15_000 });
  return link;
}
