import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_TEXTS } from '@patchwell/core/auth/mfa.schema';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { bodyOf, sessionCookieOf, type TestApp } from '../../test/app';
import { buildAccountWithUser } from '../../test/factories';
import { addressSequence, startMailingApp, type MailingApp } from '../../test/mailing-app';
import { appCode, enrolApp, json, passwordStep, verify } from '../../test/mfa';
import type { SmtpCapture } from '../../test/smtp-capture';

/**
 * Multi-factor authentication through HTTP against a real database, e-mail through a
 * loopback SMTP server, time on the test clock. The app's codes are computed with otplib at
 * the clock's time, as a phone would.
 */

let app: MailingApp;
let t: TestApp;
let smtp: SmtpCapture;
const fromNewAddress = addressSequence('198.51.100');

beforeAll(async () => {
  app = await startMailingApp();
  ({ t, smtp } = app);
});
afterAll(() => app.close());

async function signedInUser(options: { roleId?: number; globalAdmin?: boolean } = {}) {
  const built = await buildAccountWithUser(t.db, options);
  const { cookie } = await t.signIn(built.user.email, built.user.password, { headers: fromNewAddress() });
  expect(cookie).not.toBe('');
  return { ...built, session: cookie };
}

const codeIn = (text: string) => /code is: (\d{6})/.exec(text)?.[1];

describe('enrolling an authenticator app from the profile', () => {
  it('shows a secret and a QR code, confirms with a first code and gives 10 single-use recovery codes', async () => {
    const { user, session } = await signedInUser();
    const setup = await t.request('/api/users/self/tfa/setup', json({ type: 'google' }, session));
    expect(setup.status).toBe(200);
    const body = await bodyOf(setup);
    expect(body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(body.otpauth_url).toContain(encodeURIComponent(user.email));
    expect(body.qr_code).toMatch(/^data:image\/png;base64,/);

    // A wrong first code leaves MFA off.
    const wrong = await t.request('/api/users/self/tfa/confirm', json({ tfa_code: '000000' }, session));
    expect(wrong.status).toBe(401);
    expect((await bodyOf(await t.request('/api/users/self/tfa', { headers: { cookie: session } }))).tfa_type).toBe(
      'disabled',
    );

    const confirm = await t.request(
      '/api/users/self/tfa/confirm',
      json({ tfa_code: await appCode(t, body.secret) }, session),
    );
    expect(confirm.status).toBe(200);
    const { recovery_codes } = await bodyOf(confirm);
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);

    const status = await bodyOf(await t.request('/api/users/self/tfa', { headers: { cookie: session } }));
    expect(status).toMatchObject({ tfa_type: 'google', recovery_codes_left: 10, required: false });
    const profile = await bodyOf(await t.request('/api/users/self', { headers: { cookie: session } }));
    expect(profile.tfa_enabled).toBe(true);
    // A second setup while MFA is on is refused.
    expect((await t.request('/api/users/self/tfa/setup', json({ type: 'email' }, session))).status).toBe(409);
  });
});

describe('signing in with an authenticator app', () => {
  it('asks for a code after the password, and the right code starts the session', async () => {
    const { user, session } = await signedInUser();
    const { secret } = await enrolApp(t, session);
    t.clock.advance(60_000);

    const step = await passwordStep(t, user.email, user.password, fromNewAddress());
    expect(step.status).toBe(401);
    expect(step.body.code).toBe('auth.mfa_required');
    expect(sessionCookieOf(step.res)).toBe('');
    expect(step.challenge).not.toBe('');

    const tfa = await t.request(`/api/user/gettfa?email=${encodeURIComponent(user.email)}`, {
      headers: { cookie: step.challenge },
    });
    expect(await bodyOf(tfa)).toEqual({ tfa_type: 'google', enrol_required: false, email_sent: false });

    // One step early is accepted (clocks drift); the session works.
    const ok = await verify(t, step.challenge, await appCode(t, secret, -1));
    expect(ok.status).toBe(200);
    expect(ok.session).not.toBe('');
    expect((await t.request('/api/users/is-authenticated', { headers: { cookie: ok.session } })).status).toBe(200);
    // The challenge is spent.
    expect((await verify(t, step.challenge, await appCode(t, secret))).status).toBe(401);
  });

  it('refuses a replay of the same time step, and a code two steps away', async () => {
    const { user, session } = await signedInUser();
    const { secret } = await enrolApp(t, session);
    t.clock.advance(90_000);
    const first = await passwordStep(t, user.email, user.password, fromNewAddress());
    const code = await appCode(t, secret);
    expect((await verify(t, first.challenge, code)).status).toBe(200);

    const second = await passwordStep(t, user.email, user.password, fromNewAddress());
    const replay = await verify(t, second.challenge, code);
    expect(replay).toMatchObject({ status: 401, body: { code: 'mfa.invalid_code' } });
    expect((await verify(t, second.challenge, await appCode(t, secret, 2))).status).toBe(401);
    t.clock.advance(30_000);
    expect((await verify(t, second.challenge, await appCode(t, secret))).status).toBe(200);
  });

  it('ends the code step after 5 minutes', async () => {
    const { user, session } = await signedInUser();
    const { secret } = await enrolApp(t, session);
    t.clock.advance(60_000);
    const step = await passwordStep(t, user.email, user.password, fromNewAddress());
    t.clock.advance(5 * ONE_MINUTE_MS + 1000);
    const late = await verify(t, step.challenge, await appCode(t, secret));
    expect(late).toMatchObject({ status: 401, body: { code: 'mfa.no_challenge', message: MFA_TEXTS.noChallenge } });
  });

  it('refuses gettfa and verifyTfa without a pending challenge, or for another address', async () => {
    const { user, session } = await signedInUser();
    await enrolApp(t, session);
    expect((await t.request(`/api/user/gettfa?email=${encodeURIComponent(user.email)}`)).status).toBe(401);
    expect((await verify(t, '', '123456')).body.code).toBe('mfa.no_challenge');
    expect((await verify(t, 'pw_mfa=forged-token', '123456')).status).toBe(401);
    // A session cookie is no challenge.
    expect((await verify(t, session, '123456')).status).toBe(401);
    t.clock.advance(60_000);
    const step = await passwordStep(t, user.email, user.password, fromNewAddress());
    const other = await t.request('/api/user/gettfa?email=someone-else%40example.test', {
      headers: { cookie: step.challenge },
    });
    expect(other.status).toBe(401);
  });
});

describe('recovery codes', () => {
  it('each signs in once, and regenerating replaces them', async () => {
    const { user, session } = await signedInUser();
    const { recoveryCodes } = await enrolApp(t, session);
    const step = await passwordStep(t, user.email, user.password, fromNewAddress());
    expect((await verify(t, step.challenge, recoveryCodes[0]!.toUpperCase())).status).toBe(200);

    const again = await passwordStep(t, user.email, user.password, fromNewAddress());
    expect((await verify(t, again.challenge, recoveryCodes[0]!)).status).toBe(401);
    const status = await bodyOf(await t.request('/api/users/self/tfa', { headers: { cookie: session } }));
    expect(status.recovery_codes_left).toBe(9);

    const fresh = await t.request('/api/users/self/tfa/recovery-codes', json({}, session));
    expect(fresh.status).toBe(200);
    const { recovery_codes } = await bodyOf(fresh);
    expect((await verify(t, again.challenge, recoveryCodes[1]!)).status).toBe(401);
    expect((await verify(t, again.challenge, recovery_codes[1])).status).toBe(200);
  });
});

describe('e-mailed codes', () => {
  it('enrols with a mailed code and signs in with one that works once, for 10 minutes', async () => {
    const { user, session } = await signedInUser();
    let since = smtp.messages.length;
    const setup = await t.request('/api/users/self/tfa/setup', json({ type: 'email' }, session));
    expect(await bodyOf(setup)).toEqual({ type: 'email', sent_to: user.email });
    const enrolCode = codeIn((await smtp.waitFor(user.email, since)).text)!;
    const confirm = await t.request('/api/users/self/tfa/confirm', json({ tfa_code: enrolCode }, session));
    expect(confirm.status).toBe(200);

    // Sign in: gettfa mails a code.
    const step = await passwordStep(t, user.email, user.password, fromNewAddress());
    since = smtp.messages.length;
    const tfa = await t.request(`/api/user/gettfa?email=${encodeURIComponent(user.email)}`, {
      headers: { cookie: step.challenge },
    });
    expect(await bodyOf(tfa)).toEqual({ tfa_type: 'email', enrol_required: false, email_sent: true });
    const code = codeIn((await smtp.waitFor(user.email, since)).text)!;
    expect(code).not.toBe(enrolCode);
    // The enrolment's code was spent.
    expect((await verify(t, step.challenge, enrolCode)).status).toBe(401);
    expect((await verify(t, step.challenge, code)).status).toBe(200);

    // A code older than 10 minutes no longer works.
    const late = await passwordStep(t, user.email, user.password, fromNewAddress());
    since = smtp.messages.length;
    await t.request(`/api/user/gettfa?email=${encodeURIComponent(user.email)}`, {
      headers: { cookie: late.challenge },
    });
    const lateCode = codeIn((await smtp.waitFor(user.email, since)).text)!;
    t.clock.advance(4 * ONE_MINUTE_MS);
    const stillLive = await passwordStep(t, user.email, user.password, fromNewAddress());
    t.clock.advance(6 * ONE_MINUTE_MS + 1000);
    expect((await verify(t, stillLive.challenge, lateCode)).status).toBe(401);
  });
});

describe('ten wrong codes', () => {
  it('lock the user like wrong passwords do, and mail the unlock link', async () => {
    const { user, session } = await signedInUser();
    const { secret } = await enrolApp(t, session);
    const step = await passwordStep(t, user.email, user.password, fromNewAddress());
    const since = smtp.messages.length;
    for (let i = 0; i < 9; i++) {
      expect((await verify(t, step.challenge, `99999${i}`)).status).toBe(401);
    }
    const tenth = await verify(t, step.challenge, '111111');
    expect(tenth.status).toBe(403);
    expect(tenth.body.code).toBe('auth.locked');
    const mail = await smtp.waitFor(user.email, since);
    expect(mail.text).toMatch(/\/console\/unlock\?token=/);

    // The challenge is gone, and the right password now meets the lock.
    expect((await verify(t, step.challenge, await appCode(t, secret))).status).toBe(401);
    const locked = await passwordStep(t, user.email, user.password, fromNewAddress());
    expect(locked.status).toBe(403);
    // The lock ends by itself; then the code step works again.
    t.clock.advance(15 * ONE_MINUTE_MS);
    const after = await passwordStep(t, user.email, user.password, fromNewAddress());
    expect(after.status).toBe(401);
    expect((await verify(t, after.challenge, await appCode(t, secret))).status).toBe(200);
  });
});

describe('turning MFA off', () => {
  it('needs a current code when the flag require_code_to_disable_mfa is on', async () => {
    const { user, session, account } = await signedInUser();
    const { secret } = await enrolApp(t, session);
    const flag = await t.request(`/api/accounts/${account.id}/flags`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: session },
      body: JSON.stringify({ require_code_to_disable_mfa: true }),
    });
    expect(flag.status).toBeLessThan(300);
    const noCode = await t.request('/api/users/self/tfa/disable', json({}, session));
    expect(noCode.status).toBe(403);
    expect((await bodyOf(noCode)).code).toBe('mfa.code_required');
    t.clock.advance(60_000);
    const ok = await t.request('/api/users/self/tfa/disable', json({ tfa_code: await appCode(t, secret) }, session));
    expect(ok.status).toBe(204);
    const { cookie } = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    expect(cookie).not.toBe('');
  });
});
