import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { ZProfile } from '@patchwell/core/auth/profile.schema';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { sessions, users } from '../../db/schema';
import { buildAccountWithUser, buildUser } from '../../test/factories';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import { sessionIdOf } from './sessions.service';

let t: TestApp;
let ipCounter = 0;
// Each test signs in from its own address (TRUST_PROXY is on), so per-address limits do not leak between tests.
const fromNewAddress = () => ({ 'x-forwarded-for': `198.51.100.${++ipCounter}` });

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
});
afterAll(() => t.close());

describe('GET /api/users/self with Basic credentials (sign-in)', () => {
  it('signs in, sets an HttpOnly SameSite=Lax cookie and returns the profile', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const { res, cookie } = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    expect(res.status).toBe(200);
    const body = ZProfile.parse(await bodyOf(res));
    expect(body.email).toBe(user.email);
    const setCookie = res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/pw_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);
    expect(cookie).toMatch(/^pw_session=/);
  });

  it('accepts the e-mail in any letter case', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const { res } = await t.signIn(user.email.toUpperCase(), user.password, { headers: fromNewAddress() });
    expect(res.status).toBe(200);
  });

  it('stores only a hash of the session token', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const { cookie } = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    const token = cookie.split('=')[1]!;
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((r) => r.id)).toEqual([sessionIdOf(token)]);
    expect(rows[0]!.id).not.toContain(token);
  });

  it('creates a new session id on every sign-in, replacing the one the browser brought', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const headers = fromNewAddress();
    const first = await t.signIn(user.email, user.password, { headers });
    const second = await t.signIn(user.email, user.password, { headers: { ...headers, cookie: first.cookie } });
    expect(second.cookie).not.toBe(first.cookie);
    const old = await t.request('/api/users/is-authenticated', { headers: { cookie: first.cookie } });
    expect(old.status).toBe(401);
    const current = await t.request('/api/users/is-authenticated', { headers: { cookie: second.cookie } });
    expect(current.status).toBe(200);
  });

  it('answers a wrong password with 401 invalid_credentials and no WWW-Authenticate header', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const { res, cookie } = await t.signIn(user.email, 'wrong-password-123', { headers: fromNewAddress() });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(cookie).toBe('');
    expect(await bodyOf(res)).toEqual(AUTH_ERRORS.invalidCredentials);
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const { res } = await t.signIn('nobody@example.test', 'whatever-password-1', { headers: fromNewAddress() });
    expect(res.status).toBe(401);
    expect(await bodyOf(res)).toEqual({ code: 'auth.invalid_credentials', message: 'Invalid email or password.' });
  });

  it('answers malformed Basic credentials with 401 invalid_credentials', async () => {
    for (const authorization of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      const res = await t.request('/api/users/self', { headers: { authorization, ...fromNewAddress() } });
      expect(res.status).toBe(401);
      expect((await bodyOf(res)).code).toBe('auth.invalid_credentials');
    }
  });

  it('refuses a disabled user with the same 401 as wrong credentials', async () => {
    const { account, zone } = await buildAccountWithUser(t.db);
    const user = await buildUser(t.db, { accountId: account.id, status: 'disabled', zones: { [zone.id]: 2 } });
    const { res } = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).code).toBe('auth.invalid_credentials');
  });
});

describe('GET /api/users/is-authenticated', () => {
  it('is 401 unauthenticated without a cookie and true after sign-in', async () => {
    const before = await t.request('/api/users/is-authenticated');
    expect(before.status).toBe(401);
    expect(await bodyOf(before)).toEqual(AUTH_ERRORS.unauthenticated);

    const { user } = await buildAccountWithUser(t.db);
    const { cookie } = await t.signIn(user.email, user.password, { headers: fromNewAddress() });
    const after = await t.request('/api/users/is-authenticated', { headers: { cookie } });
    expect(after.status).toBe(200);
    expect(await bodyOf(after)).toBe(true);
  });

  it('is 401 session_expired for a cookie that names no session', async () => {
    const res = await t.request('/api/users/is-authenticated', { headers: { cookie: 'pw_session=forged-token' } });
    expect(res.status).toBe(401);
    expect(await bodyOf(res)).toEqual(AUTH_ERRORS.sessionExpired);
  });
});

describe('sign-in lockout and rate limits', () => {
  it('locks the user after 5 consecutive failures; then even the right password gets 403 locked (for 15 minutes)', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const headers = fromNewAddress();
    for (let i = 0; i < 5; i++) {
      const { res } = await t.signIn(user.email, `wrong-password-${i}`, { headers });
      expect(res.status).toBe(401);
    }
    const [row] = await t.db.select({ locked: users.locked }).from(users).where(eq(users.id, user.id));
    expect(row!.locked).toBe(true);

    const right = await t.signIn(user.email, user.password, { headers });
    expect(right.res.status).toBe(403);
    expect(await bodyOf(right.res)).toEqual({ code: AUTH_ERRORS.locked.code, message: AUTH_ERRORS.locked.message(15) });
    expect(right.cookie).toBe('');
    // A wrong guess on a locked user reveals nothing more than any wrong guess.
    const wrong = await t.signIn(user.email, 'wrong-password-x', { headers });
    expect(wrong.res.status).toBe(401);
  });

  it('resets the consecutive count after a successful sign-in', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const headers = fromNewAddress();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) await t.signIn(user.email, `wrong-password-${i}`, { headers });
      const { res } = await t.signIn(user.email, user.password, { headers });
      expect(res.status).toBe(200);
    }
  });

  it('answers 429 with Retry-After after 10 failures for one account within 15 minutes', async () => {
    const email = 'target@example.test'; // unknown: the limit protects names without a user too
    for (let i = 0; i < 10; i++) {
      const { res } = await t.signIn(email, `guess-number-${i}`, { headers: fromNewAddress() });
      expect(res.status).toBe(401);
    }
    const { res } = await t.signIn(email, 'guess-number-x', { headers: fromNewAddress() });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBe(15 * 60);
    expect(await bodyOf(res)).toEqual({
      code: 'auth.rate_limited',
      message: 'Too many sign-in attempts. Try again in 15 minutes.',
    });
    t.clock.advance(15 * ONE_MINUTE_MS + 1000);
    const later = await t.signIn(email, 'guess-number-y', { headers: fromNewAddress() });
    expect(later.res.status).toBe(401);
  });

  it('answers 429 after 20 failures from one address, even for right credentials, until the window passes', async () => {
    const headers = fromNewAddress();
    for (let i = 0; i < 20; i++) {
      const { res } = await t.signIn(`someone-${i}@example.test`, 'guess-password-1', { headers });
      expect(res.status).toBe(401);
    }
    const { user } = await buildAccountWithUser(t.db);
    t.clock.advance(5 * ONE_MINUTE_MS);
    const limited = await t.signIn(user.email, user.password, { headers });
    expect(limited.res.status).toBe(429);
    expect(Number(limited.res.headers.get('retry-after'))).toBe(10 * 60);
    expect((await bodyOf(limited.res)).message).toBe('Too many sign-in attempts. Try again in 10 minutes.');

    // Another address is not affected.
    expect((await t.signIn(user.email, user.password, { headers: fromNewAddress() })).res.status).toBe(200);

    t.clock.advance(10 * ONE_MINUTE_MS + 1000);
    expect((await t.signIn(user.email, user.password, { headers })).res.status).toBe(200);
  });

  it('lets exactly 20 of 30 simultaneous wrong sign-ins from one address through, and refuses the rest with 429', async () => {
    const headers = fromNewAddress();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.signIn(`burst-${i}@example.test`, 'guess-password-1', { headers })),
    );
    const statuses = results.map((r) => r.res.status).sort();
    expect(statuses).toEqual([...Array<number>(20).fill(401), ...Array<number>(10).fill(429)]);
  });

  it('lets exactly 10 of 15 simultaneous wrong sign-ins for one account through, from any addresses', async () => {
    const email = 'burst-target@example.test';
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => t.signIn(email, `guess-number-${i}`, { headers: fromNewAddress() })),
    );
    const statuses = results.map((r) => r.res.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(5).fill(429)]);
  });

  it('does not count a successful sign-in, and keeps counting the failures around it', async () => {
    const { user } = await buildAccountWithUser(t.db);
    const headers = fromNewAddress();
    for (let i = 0; i < 19; i++) await t.signIn(`someone-${i}@example.test`, 'guess-password-1', { headers });
    expect((await t.signIn(user.email, user.password, { headers })).res.status).toBe(200);
    expect((await t.signIn('someone-19@example.test', 'guess-password-1', { headers })).res.status).toBe(401);
    expect((await t.signIn(user.email, user.password, { headers })).res.status).toBe(429);
  });
});
