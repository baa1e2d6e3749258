import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { bodyOf, type TestApp } from '../../test/app';
import { buildAccountWithUser } from '../../test/factories';
import { addressSequence, startMailingApp, type MailingApp } from '../../test/mailing-app';
import type { SmtpCapture } from '../../test/smtp-capture';

/**
 * Issue 10 defect 3: five wrong passwords lock an account for a while, not for good; each
 * further lock lasts twice as long (at most a day); the locked user gets an unlock link by
 * e-mail (real SMTP) that works once. Time moves on the test clock, never by sleeping.
 */

let t: TestApp;
let smtp: SmtpCapture;
const fromNewAddress = addressSequence('203.0.113');

let app: MailingApp;

beforeAll(async () => {
  app = await startMailingApp();
  ({ t, smtp } = app);
});
afterAll(() => app.close());

const lockedBody = (minutes: number) => ({
  code: AUTH_ERRORS.locked.code,
  message: AUTH_ERRORS.locked.message(minutes),
});

async function failFiveTimes(email: string) {
  const headers = fromNewAddress();
  for (let i = 0; i < 5; i++) {
    const { res } = await t.signIn(email, `wrong-password-${i}`, { headers });
    expect(res.status).toBe(401);
  }
}

async function signInStatus(email: string, password: string) {
  const { res } = await t.signIn(email, password, { headers: fromNewAddress() });
  return { status: res.status, body: await bodyOf(res) };
}

const unlockTokenIn = (text: string) => /https:\/\/pw\.test\/console\/unlock\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

const unlock = (token: string) =>
  t.request('/api/users/unlock', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });

describe('sign-in lock that expires and grows', () => {
  it('locks for 15 minutes, then 30 after a further lock; a successful sign-in starts over', async () => {
    const { user } = await buildAccountWithUser(t.db);
    await failFiveTimes(user.email);
    expect(await signInStatus(user.email, user.password)).toEqual({ status: 403, body: lockedBody(15) });

    t.clock.advance(10 * ONE_MINUTE_MS);
    expect(await signInStatus(user.email, user.password)).toEqual({ status: 403, body: lockedBody(5) });
    // A guess during the lock does not extend it.
    expect((await signInStatus(user.email, 'wrong-password-during-lock')).status).toBe(401);
    t.clock.advance(5 * ONE_MINUTE_MS);
    expect(await signInStatus(user.email, 'wrong-password-at-the-end')).toMatchObject({ status: 401 });
    // (The per-e-mail rate limit's 15-minute window has moved past the first five too.)
    t.clock.advance(ONE_MINUTE_MS);

    // The lock ended; four more failures (five in a row) before any success lock for twice as long.
    await failFiveTimes(user.email);
    expect(await signInStatus(user.email, user.password)).toEqual({ status: 403, body: lockedBody(30) });
    t.clock.advance(29 * ONE_MINUTE_MS);
    expect((await signInStatus(user.email, user.password)).status).toBe(403);
    t.clock.advance(ONE_MINUTE_MS);
    expect((await signInStatus(user.email, user.password)).status).toBe(200);

    // Signed in: the next lock is a first lock again.
    await failFiveTimes(user.email);
    expect(await signInStatus(user.email, user.password)).toEqual({ status: 403, body: lockedBody(15) });
    t.clock.advance(15 * ONE_MINUTE_MS);
  });

  it('never locks for more than a day', async () => {
    const { user } = await buildAccountWithUser(t.db);
    for (let lock = 0; lock < 8; lock++) {
      await failFiveTimes(user.email);
      const { body } = await signInStatus(user.email, user.password);
      const minutes = Math.min(15 * 2 ** lock, 24 * 60);
      expect(body).toEqual(lockedBody(minutes));
      t.clock.advance(minutes * ONE_MINUTE_MS);
    }
  });
});

describe('POST /api/users/unlock with the mailed link', () => {
  it('mails the locked sole global administrator a link that unlocks once', async () => {
    // buildAccountWithUser: the account's only user, its global administrator.
    const { user } = await buildAccountWithUser(t.db);
    const before = smtp.messages.length;
    await failFiveTimes(user.email);
    const mail = await smtp.waitFor(user.email, before);
    expect(mail.subject).toBe('Your Patchwell account was locked');
    expect(mail.text).toContain('locked after 5 failed sign-ins in a row');
    const token = unlockTokenIn(mail.text);
    expect(token).toBeDefined();
    // One mail per lock, not per failure.
    expect(smtp.messages.slice(before).filter((m) => m.recipients.includes(user.email))).toHaveLength(1);

    expect((await signInStatus(user.email, user.password)).status).toBe(403);
    const res = await unlock(token!);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ email: user.email });
    expect((await signInStatus(user.email, user.password)).status).toBe(200);

    const again = await unlock(token!);
    expect(again.status).toBe(410);
    expect(await bodyOf(again)).toEqual(AUTH_ERRORS.unlockGone);
  });

  it('refuses an unknown token and a link whose lock has ended', async () => {
    expect((await unlock('not-a-real-token')).status).toBe(410);
    const { user } = await buildAccountWithUser(t.db);
    const before = smtp.messages.length;
    await failFiveTimes(user.email);
    const token = unlockTokenIn((await smtp.waitFor(user.email, before)).text)!;
    t.clock.advance(15 * ONE_MINUTE_MS);
    expect((await unlock(token)).status).toBe(410);
    const empty = await t.request('/api/users/unlock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: '' }),
    });
    expect(empty.status).toBe(400);
  });
});
