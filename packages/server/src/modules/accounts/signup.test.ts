import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import { ZSignUpResult } from '@patchwell/core/auth/signup.schema';
import { ONE_DAY_MS, ONE_MINUTE_MS } from '@patchwell/core/constants';
import { TEXTS } from '@patchwell/core/texts';
import { accounts, organizations, userZoneRoles, users } from '../../db/schema';
import { createTestDb } from '../../test/db';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import type { DbHandle } from '../../db/client';

let handle: DbHandle;
let t: TestApp;
let n = 0;

const validBody = () => ({
  firstname: 'Grace',
  lastname: 'Hopper',
  company: `Initech ${++n}`,
  email: `grace.${n}@initech.test`,
  password: 'a-long-and-unusual-passphrase',
  password_confirmation: 'a-long-and-unusual-passphrase',
  endpoints: 250,
});

let addresses = 0;
// TRUST_PROXY is on, so each call comes from its own address unless a test names one: the
// per-address sign-up limit stays out of the tests that are not about it.
const newAddress = () => `198.51.100.${++addresses}`;

const signUp = (body: unknown, app: TestApp = t, address = newAddress()) =>
  app.request('/api/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  handle = await createTestDb();
  t = await startTestApp({ db: handle, config: { trustProxy: true } });
});
afterAll(async () => {
  await t.close();
  await handle.close();
});

describe('POST /api/signup', () => {
  it('creates the account, a 15-day Complete trial zone and a global administrator, who must verify the address', async () => {
    const body = { ...validBody(), email: '  Grace.Mixed@Initech.TEST ' };
    const res = await signUp(body);
    expect(res.status).toBe(201);
    const result = ZSignUpResult.parse(await bodyOf(res));
    expect(result.email).toBe('grace.mixed@initech.test');

    const [account] = await t.db.select().from(accounts).where(eq(accounts.id, result.account_id));
    expect(account!.name).toBe(body.company);
    const [zone] = await t.db.select().from(organizations).where(eq(organizations.id, result.zone_id));
    expect(zone).toMatchObject({ name: body.company, plan: 'tier3', accountId: account!.id });
    expect(zone!.trialEndTime!.getTime()).toBe(t.clock.now().getTime() + 15 * ONE_DAY_MS);
    const [user] = await t.db.select().from(users).where(eq(users.id, result.user_id));
    expect(user).toMatchObject({ accountRbacRole: 'global-admin', status: 'active', firstname: 'Grace' });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const roles = await t.db.select().from(userZoneRoles).where(eq(userZoneRoles.userId, user!.id));
    expect(roles).toEqual([{ userId: user!.id, organizationId: zone!.id, roleId: 1 }]);

    // No session until the address is proven (auth/password-reset.test.ts follows the link).
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(result.redirect).toBe('/login?err=verification_email_sent');
    expect(user!.emailVerified).toBe(false);
    const refused = await t.signIn(result.email, body.password);
    expect(refused.res.status).toBe(403);
    expect(await bodyOf(refused.res)).toEqual({
      code: 'auth.email_unverified',
      message: TEXTS.login.verificationEmailSent,
    });
  });

  it('lists every invalid field in one 400', async () => {
    const res = await signUp({
      firstname: '',
      lastname: 'x'.repeat(32),
      company: '',
      email: 'not-an-email',
      password: 'short',
      password_confirmation: 'different',
      endpoints: 0,
    });
    expect(res.status).toBe(400);
    const body = await bodyOf(res);
    expect(body.code).toBe('validation');
    expect(body.message).toBe(TEXTS.validation.summary);
    expect(Object.keys(body.errors).sort()).toEqual(
      ['company', 'email', 'endpoints', 'firstname', 'lastname', 'password', 'password_confirmation'].sort(),
    );
    expect(body.errors.email).toEqual([TEXTS.validation.email]);
    expect(body.errors.password).toEqual([TEXTS.validation.minLength(12)]);
    expect(body.errors.password_confirmation).toEqual(['Passwords do not match.']);
    expect(body.errors.firstname).toEqual(['First name is required']);
  });

  it('names every missing field of an empty body', async () => {
    const res = await signUp({});
    expect(res.status).toBe(400);
    expect(Object.keys((await bodyOf(res)).errors)).toHaveLength(7);
  });

  it('accepts names of 31 characters and refuses 32', async () => {
    const ok = await signUp({ ...validBody(), firstname: 'a'.repeat(31), lastname: 'b'.repeat(31) });
    expect(ok.status).toBe(201);
    const tooLong = await signUp({ ...validBody(), firstname: 'a'.repeat(32), lastname: 'b'.repeat(32) });
    expect(tooLong.status).toBe(400);
    const { errors } = await bodyOf(tooLong);
    expect(errors).toEqual({
      firstname: ['First name must be under 32 characters.'],
      lastname: ['Last name must be under 32 characters.'],
    });
  });

  it('refuses a company name over 64 characters', async () => {
    const res = await signUp({ ...validBody(), company: 'c'.repeat(65) });
    expect(res.status).toBe(400);
    expect(Object.keys((await bodyOf(res)).errors)).toEqual(['company']);
  });

  it('refuses a password from the common-password list', async () => {
    const res = await signUp({ ...validBody(), password: 'qwerty123456', password_confirmation: 'qwerty123456' });
    expect(res.status).toBe(400);
    expect(await bodyOf(res)).toEqual({
      code: 'validation',
      message: TEXTS.validation.summary,
      errors: { password: [COMMON_PASSWORD_MESSAGE] },
    });
  });

  it('answers 409 email_taken for an e-mail that already has an account, in any letter case', async () => {
    const body = validBody();
    expect((await signUp(body)).status).toBe(201);
    const again = await signUp({ ...validBody(), email: body.email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(await bodyOf(again)).toEqual({
      code: 'auth.email_taken',
      message: 'An account with this email already exists.',
      errors: { email: ['An account with this email already exists.'] },
    });
  });

  it('answers 400 for a body that is not JSON and 415 for another content type', async () => {
    const bad = await t.request('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"firstname": ',
    });
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).code).toBe('bad_request');
    const xml = await t.request('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<signup/>',
    });
    expect(xml.status).toBe(415);
    expect((await bodyOf(xml)).code).toBe('unsupported_media_type');
  });

  it('answers 400 for a JSON array or string body', async () => {
    for (const body of [[], 'text', 42]) {
      const res = await signUp(body);
      expect(res.status).toBe(400);
      expect((await bodyOf(res)).code).toBe('validation');
    }
  });

  it('refuses a sign-up posted from another site', async () => {
    const res = await t.request('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify(validBody()),
    });
    expect(res.status).toBe(403);
  });

  it('is 404 when sign-up is turned off', async () => {
    const closed = await startTestApp({ db: handle, config: { signupEnabled: false } });
    try {
      const res = await signUp(validBody(), closed);
      expect(res.status).toBe(404);
      expect((await bodyOf(res)).code).toBe('not_found');
    } finally {
      await closed.close();
    }
  });
});

describe('POST /api/signup rate limit', () => {
  const commonPassword = () => ({ ...validBody(), password: 'qwerty123456', password_confirmation: 'qwerty123456' });

  it('answers 429 with Retry-After after 10 attempts from one address within an hour, whatever their outcome', async () => {
    const address = newAddress();
    const taken = validBody();
    expect((await signUp(taken, t, address)).status).toBe(201);
    expect((await signUp({ ...validBody(), email: taken.email }, t, address)).status).toBe(409);
    for (let i = 0; i < 8; i++) expect((await signUp(commonPassword(), t, address)).status).toBe(400);

    const refused = validBody();
    const res = await signUp(refused, t, address);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(await bodyOf(res)).toEqual({
      code: 'auth.rate_limited',
      message: 'Too many sign-up attempts. Try again in 60 minutes.',
    });
    expect(await t.db.select().from(users).where(eq(users.email, refused.email))).toEqual([]);

    // Another address is not affected.
    expect((await signUp(validBody())).status).toBe(201);

    t.clock.advance(30 * ONE_MINUTE_MS);
    const later = await signUp(refused, t, address);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('1800');
    t.clock.advance(30 * ONE_MINUTE_MS + 1000);
    expect((await signUp(refused, t, address)).status).toBe(201);
  });

  it('lets no more than 10 of many simultaneous attempts through', async () => {
    const address = newAddress();
    const results = await Promise.all(Array.from({ length: 15 }, () => signUp(commonPassword(), t, address)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(400), ...Array<number>(5).fill(429)]);
  });

  it('does not count bodies the schema refuses, which cost no password hash', async () => {
    const address = newAddress();
    for (let i = 0; i < 12; i++) expect((await signUp({ ...validBody(), email: 'nope' }, t, address)).status).toBe(400);
    expect((await signUp(validBody(), t, address)).status).toBe(201);
  });
});
