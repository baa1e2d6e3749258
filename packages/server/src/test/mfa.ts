import { generate } from 'otplib';
import type { TestApp } from './app';
import { bodyOf, sessionCookieOf } from './app';

/**
 * What the MFA tests share: sign in up to the code step, compute the app's code at the test
 * clock's time with otplib (as a phone would), and enrol a user's app from the profile.
 */

/** The pending-challenge cookie (`name=value`) a response sets, or ''. */
export function challengeCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?pw_mfa=[^;]/.test(c));
  return set ? set.split(';')[0]! : '';
}

/** The 6-digit code of `secret` at the clock's time, `stepOffset` 30-second steps away. */
export function appCode(t: TestApp, secret: string, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + stepOffset * 30 });
}

export const json = (body: unknown, cookie: string, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie, ...extra },
  body: JSON.stringify(body),
});

/** Enrols the signed-in user's authenticator app; returns its secret and the recovery codes. */
export async function enrolApp(t: TestApp, session: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.request('/api/users/self/tfa/setup', json({ type: 'google' }, session));
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status}`);
  const { secret } = await bodyOf(setup);
  const confirm = await t.request('/api/users/self/tfa/confirm', json({ tfa_code: await appCode(t, secret) }, session));
  if (confirm.status !== 200) throw new Error(`confirm answered ${confirm.status}`);
  return { secret, recoveryCodes: (await bodyOf(confirm)).recovery_codes };
}

/** Signs in with the password of a user with MFA; returns the 401 and its challenge cookie. */
export async function passwordStep(t: TestApp, email: string, password: string, headers: Record<string, string> = {}) {
  const { res } = await t.signIn(email, password, { headers });
  return { res, status: res.status, body: await bodyOf(res), challenge: challengeCookieOf(res) };
}

/** `POST /api/verifyTfa` with the challenge cookie; returns status, body and the session cookie set. */
export async function verify(t: TestApp, challenge: string, code: string, headers: Record<string, string> = {}) {
  const res = await t.request('/api/verifyTfa', json({ tfa_code: code }, challenge, headers));
  return { status: res.status, body: await bodyOf(res), session: sessionCookieOf(res) };
}
