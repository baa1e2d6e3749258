import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_TEXTS } from '@patchwell/core/auth/password-reset.schema';
import { ONE_HOUR_MS } from '@patchwell/core/constants';
import { TEXTS } from '@patchwell/core/texts';
import { users } from '../../db/schema';
import { bodyOf, type TestApp } from '../../test/app';
import { buildAccountWithUser } from '../../test/factories';
import { addressSequence, startMailingApp, type MailingApp } from '../../test/mailing-app';
import type { SmtpCapture } from '../../test/smtp-capture';

/**
 * Issue 13, sign-up verification: a new account signs in only after following the link
 * mailed by real SMTP (loopback capture); the link works once and expires after 72 hours;
 * a new one can be asked for; existing users are unaffected.
 */

let t: TestApp;
let smtp: SmtpCapture;
const fromNewAddress = addressSequence('198.19.0');
let signUps = 0;
const PASSWORD = 'a-long-and-unusual-passphrase';

let app: MailingApp;

beforeAll(async () => {
  app = await startMailingApp();
  ({ t, smtp } = app);
});
afterAll(() => app.close());

const post = (path: string, body: unknown) =>
  t.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...fromNewAddress() },
    body: JSON.stringify(body),
  });
const tokenIn = (text: string) => /https:\/\/pw\.test\/console\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
const signIn = (email: string, password = PASSWORD) => t.signIn(email, password, { headers: fromNewAddress() });

async function signUp(): Promise<{ email: string; token: string }> {
  const n = ++signUps;
  const email = `verify-${n}@initech.test`;
  const before = smtp.messages.length;
  const res = await post('/api/signup', {
    firstname: 'Ada',
    lastname: 'Lovelace',
    company: `Verify ${n}`,
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    endpoints: 5,
  });
  expect(res.status).toBe(201);
  expect((await bodyOf(res)).redirect).toBe('/login?err=verification_email_sent');
  const mail = await smtp.waitFor(email, before);
  expect(mail.subject).toBe('Verify your email address for Patchwell');
  return { email, token: tokenIn(mail.text)! };
}

describe('sign-up e-mail verification', () => {
  it('refuses sign-in until the mailed link is followed, once', async () => {
    const { email, token } = await signUp();
    expect(token).toBeDefined();
    const refused = await signIn(email);
    expect(refused.res.status).toBe(403);
    expect(await bodyOf(refused.res)).toEqual({
      code: 'auth.email_unverified',
      message: TEXTS.login.verificationEmailSent,
    });
    // A wrong password learns nothing about verification.
    expect((await signIn(email, 'not-the-password-at-all')).res.status).toBe(401);

    const verified = await post('/api/users/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(await bodyOf(verified)).toEqual({ email });
    expect((await signIn(email)).res.status).toBe(200);

    const again = await post('/api/users/verify-email', { token });
    expect(again.status).toBe(410);
    expect(await bodyOf(again)).toEqual({
      code: 'auth.verification_link_expired',
      message: PASSWORD_RESET_TEXTS.verificationGone,
    });
  });

  it('expires after 72 hours; a resent link supersedes the first and works', async () => {
    const { email, token } = await signUp();
    const before = smtp.messages.length;
    const resent = await post('/api/users/verification-email', { email });
    expect(resent.status).toBe(200);
    const unknown = await post('/api/users/verification-email', { email: 'nobody@initech.test' });
    expect(await bodyOf(unknown)).toEqual(await bodyOf(resent));
    const second = tokenIn((await smtp.waitFor(email, before)).text)!;
    expect(second).not.toBe(token);
    expect((await post('/api/users/verify-email', { token })).status).toBe(410);

    t.clock.advance(72 * ONE_HOUR_MS);
    expect((await post('/api/users/verify-email', { token: second })).status).toBe(410);
    expect((await signIn(email)).res.status).toBe(403);

    const third = smtp.messages.length;
    expect((await post('/api/users/verification-email', { email })).status).toBe(200);
    const fresh = tokenIn((await smtp.waitFor(email, third)).text)!;
    expect((await post('/api/users/verify-email', { token: fresh })).status).toBe(200);
    expect((await signIn(email)).res.status).toBe(200);
  });

  it('mails no new link to a verified user, and limits resends per address', async () => {
    const { user } = await buildAccountWithUser(t.db);
    expect((await signIn(user.email, user.password)).res.status).toBe(200);
    const before = smtp.messages.length;
    for (let i = 0; i < 3; i++)
      expect((await post('/api/users/verification-email', { email: user.email })).status).toBe(200);
    expect((await post('/api/users/verification-email', { email: user.email })).status).toBe(429);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailVerified).toBe(true);
    expect(smtp.messages.slice(before).some((m) => m.recipients.includes(user.email))).toBe(false);
  });

  it('a password reset link also proves the address', async () => {
    const { email } = await signUp();
    const before = smtp.messages.length;
    expect((await post('/api/passwordReset', { email })).status).toBe(200);
    const text = (await smtp.waitFor(email, before)).text;
    const token = /password-reset\?token=([A-Za-z0-9_-]+)/.exec(text)![1]!;
    const newPassword = 'another-long-unusual-passphrase';
    const res = await post('/api/passwordReset', { token, password: newPassword, password_confirmation: newPassword });
    expect(res.status).toBe(200);
    expect((await signIn(email, newPassword)).res.status).toBe(200);
  });
});
