import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import { PASSWORD_RESET_TEXTS } from '@patchwell/core/auth/password-reset.schema';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { activityLog } from '../../db/activity.schema';
import { userTokens } from '../../db/auth.schema';
import { outbox, sessions, users } from '../../db/schema';
import { WITHHELD } from '../mail/mail.service';
import { bodyOf, type TestApp } from '../../test/app';
import { buildAccountWithUser } from '../../test/factories';
import { addressSequence, startMailingApp, type MailingApp } from '../../test/mailing-app';
import type { SmtpCapture } from '../../test/smtp-capture';

/**
 * Issue 13, password reset: a link mailed by real SMTP (loopback capture) and followed over
 * HTTP; the same answer for unknown addresses; expiry and single use on the test clock;
 * every session ended; a sign-in lock lifted.
 */

let t: TestApp;
let smtp: SmtpCapture;
const fromNewAddress = addressSequence('198.18.0');
const NEW_PASSWORD = 'a-brand-new-and-unusual-passphrase';

let app: MailingApp;

beforeAll(async () => {
  app = await startMailingApp();
  ({ t, smtp } = app);
});
afterAll(() => app.close());

const post = (path: string, body: unknown, headers: Record<string, string> = fromNewAddress()) =>
  t.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const askReset = (email: string, headers?: Record<string, string>) => post('/api/passwordReset', { email }, headers);
const reset = (token: string, password = NEW_PASSWORD) =>
  post('/api/passwordReset', { token, password, password_confirmation: password });
const check = (token: string) => t.request(`/api/passwordReset?token=${encodeURIComponent(token)}`);
const tokenIn = (text: string, page: string) =>
  new RegExp(`https://pw\\.test/console/${page}\\?token=([A-Za-z0-9_-]+)`).exec(text)?.[1];

async function mailedResetToken(email: string): Promise<string> {
  const before = smtp.messages.length;
  const res = await askReset(email);
  expect(res.status).toBe(200);
  const mail = await smtp.waitFor(email, before);
  expect(mail.subject).toBe('Reset your Patchwell password');
  const token = tokenIn(mail.text, 'password-reset');
  expect(token).toBeDefined();
  return token!;
}

describe('POST /api/passwordReset {email}', () => {
  it('mails the link, and keeps its token out of the outbox the account administrators read', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const token = await mailedResetToken(user.email);
    const [stored] = await t.db.select().from(outbox).where(eq(outbox.to, user.email));
    expect(stored!.text).toContain(`/console/password-reset?token=${WITHHELD}`);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('answers the same for an unknown address and mails nothing', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const known = await askReset(user.email);
    const unknown = await askReset('nobody-here@example.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await bodyOf(unknown)).toEqual(await bodyOf(known));
    expect(await bodyOf(await askReset('nobody-either@example.test'))).toEqual({
      message: PASSWORD_RESET_TEXTS.requested,
    });
    await smtp.waitFor(user.email);
    expect(smtp.messages.some((m) => m.recipients.includes('nobody-here@example.test'))).toBe(false);
    // The table holds only hashes: the mailed token is not in it.
    const rows = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rate limits per e-mail (3 an hour) and per client address (10 an hour)', async () => {
    const { user } = await buildAccountWithUser(t.db);
    for (let i = 0; i < 3; i++) expect((await askReset(user.email)).status).toBe(200);
    const limited = await askReset(user.email);
    expect(limited.status).toBe(429);
    expect((await bodyOf(limited)).code).toBe('auth.rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const one = fromNewAddress();
    for (let i = 0; i < 10; i++) expect((await askReset(`unknown-${i}@example.test`, one)).status).toBe(200);
    expect((await askReset('unknown-10@example.test', one)).status).toBe(429);
    t.clock.advance(61 * ONE_MINUTE_MS);
    expect((await askReset('unknown-10@example.test', one)).status).toBe(200);
  });

  it('refuses a malformed address with 400', async () => {
    const res = await askReset('not-an-address');
    expect(res.status).toBe(400);
  });
});

describe('following the mailed link', () => {
  it('sets the password once, ends every session, and mails a notice', async () => {
    const { user, account } = await buildAccountWithUser(t.db);
    const a = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    const b = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    expect(a.res.status).toBe(200);
    const token = await mailedResetToken(user.email);

    const state = await check(token);
    expect(state.status).toBe(200);
    expect(await bodyOf(state)).toEqual({ valid: true, email: user.email });

    const before = smtp.messages.length;
    const res = await reset(token);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ email: user.email, sessions_ended: 2 });
    for (const cookie of [a.cookie, b.cookie]) {
      expect((await t.request('/api/users/is-authenticated', { headers: { cookie } })).status).toBe(401);
    }
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    const notice = await smtp.waitFor(user.email, before);
    expect(notice.subject).toBe('Your Patchwell password was changed');
    expect(notice.text).not.toContain(NEW_PASSWORD);

    expect((await t.signIn(user.email, user.password, { headers: fromNewAddress() })).res.status).toBe(401);
    expect((await t.signIn(user.email, NEW_PASSWORD, { headers: fromNewAddress() })).res.status).toBe(200);

    // Single use.
    const again = await reset(token, 'yet-another-unusual-passphrase');
    expect(again.status).toBe(410);
    expect(await bodyOf(again)).toEqual({ code: 'auth.reset_link_expired', message: PASSWORD_RESET_TEXTS.linkGone });
    expect((await check(token)).status).toBe(410);

    // Activity: the request and the reset, with no token or password in them.
    const events = await t.db.select().from(activityLog).where(eq(activityLog.accountId, account.id));
    const actions = events.map((e) => e.action);
    expect(actions).toContain('user.password_reset_requested');
    expect(actions).toContain('user.password_reset');
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain(NEW_PASSWORD);
  });

  it('expires after an hour, and a newer link supersedes the older one', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const first = await mailedResetToken(user.email);
    const second = await mailedResetToken(user.email);
    expect((await check(first)).status).toBe(410);
    expect((await reset(first)).status).toBe(410);
    t.clock.advance(59 * ONE_MINUTE_MS);
    expect((await check(second)).status).toBe(200);
    t.clock.advance(ONE_MINUTE_MS);
    expect((await check(second)).status).toBe(410);
    expect((await reset(second)).status).toBe(410);
    expect((await check('never-issued')).status).toBe(410);
  });

  it('lifts a sign-in lock: the way back for a locked account', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const headers = fromNewAddress();
    for (let i = 0; i < 5; i++) await t.signIn(user.email, `wrong-${i}`, { headers });
    const locked = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    expect(locked.res.status).toBe(403);
    expect((await bodyOf(locked.res)).code).toBe(AUTH_ERRORS.locked.code);

    const token = await mailedResetToken(user.email);
    expect((await reset(token)).status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ locked: false, lockedUntil: null, failedSigninCount: 0, unlockTokenHash: null });
    expect((await t.signIn(user.email, NEW_PASSWORD, { headers: fromNewAddress() })).res.status).toBe(200);
  });

  it('applies the password rules and leaves the link usable after a refused password', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const token = await mailedResetToken(user.email);
    const short = await reset(token, 'short');
    expect(short.status).toBe(400);
    expect((await bodyOf(short)).errors.password).toEqual(['Value must be at least 12 characters.']);
    const common = await reset(token, 'password1234');
    expect(common.status).toBe(400);
    expect((await bodyOf(common)).errors.password).toEqual([COMMON_PASSWORD_MESSAGE]);
    const mismatch = await post('/api/passwordReset', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: `${NEW_PASSWORD}!`,
    });
    expect(mismatch.status).toBe(400);
    expect((await bodyOf(mismatch)).errors.password_confirmation).toEqual(['Passwords do not match.']);
    expect((await reset(token)).status).toBe(200);
  });

  it('sends no link to a disabled user, and a link stops working once the user is disabled', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const token = await mailedResetToken(user.email);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect((await check(token)).status).toBe(410);
    expect((await reset(token)).status).toBe(410);
    const before = smtp.messages.length;
    expect((await askReset(user.email)).status).toBe(200);
    const sent = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(sent).toHaveLength(1);
    expect(smtp.messages.length).toBe(before);
  });
});
