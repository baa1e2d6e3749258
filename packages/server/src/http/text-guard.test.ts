import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXTS } from '@patchwell/core/texts';
import { buildZoneWithKey, checkinAs, enrollBody, enrollDevice, type EnrolledDevice } from '../test/agents';
import { startTestApp, type TestApp } from '../test/app';
import { call } from '../test/authz-helpers';
import { TEXT_GUARD_MESSAGE } from './text-guard';

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let device: EnrolledDevice;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  device = await enrollDevice(t, z.accessKey, { hostname: 'guarded' });
});
afterAll(async () => {
  await t.close();
});

const refused = (...fields: string[]) => ({
  code: 'validation',
  message: TEXTS.validation.summary,
  errors: Object.fromEntries(fields.map((f) => [f, [TEXT_GUARD_MESSAGE]])),
});

describe('text the database cannot store (defects 1 and 2)', () => {
  it('refuses a check-in whose logged_in_user holds a NUL byte, naming the field', async () => {
    const res = await checkinAs(t, device.token, { status: { logged_in_user: 'alice\u0000' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused('status.logged_in_user'));
    // The device keeps checking in with clean text.
    expect((await checkinAs(t, device.token, { status: { logged_in_user: 'alice' } })).status).toBe(200);
  });

  it('refuses unpaired surrogates in an enrolment and in sign-up, without a session', async () => {
    const enrol = await call(t, {}, 'POST', '/api/agent/v1/enroll', enrollBody(z.accessKey, { hostname: 'web\ud800' }));
    expect(enrol.status).toBe(400);
    expect(enrol.body).toEqual(refused('hostname'));
    const signup = await call(
      t,
      {},
      'POST',
      '/api/signup',
      { company: 'A\udc00', email: 'x\u0000@example.com' },
      {
        origin: t.url,
      },
    );
    expect(signup.status).toBe(400);
    expect(signup.body).toEqual(refused('company', 'email'));
  });

  it('refuses NUL in the query string, a path parameter and Basic sign-in credentials', async () => {
    const search = await call(t, { cookie: z.cookie }, 'GET', `/api/servers?o=${z.zone.id}&search=a%00b`);
    expect(search.status).toBe(400);
    expect(search.body).toEqual(refused('search'));
    const token = await call(t, {}, 'GET', '/api/invitations/abc%00def');
    expect(token.body).toEqual(refused('token'));
    const basic = await t.request('/api/users/self', {
      headers: { authorization: `Basic ${Buffer.from('a\u0000@example.com:password').toString('base64')}` },
    });
    expect(basic.status).toBe(400);
    expect(await basic.json()).toEqual(refused('authorization'));
  });

  it('names a bad object key escaped, and accepts paired surrogates (emoji)', async () => {
    const res = await call(
      t,
      { cookie: z.cookie },
      'POST',
      `/api/users/self/prefs?o=${z.zone.id}`,
      {
        prefs: [{ pref_name: 'note', value: 'ok 😀' }],
        'bad\u0000key': 1,
      },
      { origin: t.url },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused('bad\\u0000key'));
    const ok = await call(
      t,
      { cookie: z.cookie },
      'POST',
      `/api/users/self/prefs?o=${z.zone.id}`,
      {
        prefs: [{ pref_name: 'note', value: 'ok 😀' }],
      },
      { origin: t.url },
    );
    expect(ok.status).toBeLessThan(300);
  });

  it('refuses overlong zone names and preferences with 400', async () => {
    const zone = await call(
      t,
      { cookie: z.cookie },
      'POST',
      `/api/orgs?o=${z.zone.id}`,
      { name: 'z'.repeat(101) },
      {
        origin: t.url,
      },
    );
    expect(zone.status).toBe(400);
    expect(zone.body.errors).toEqual({ name: ['Zone name must be at most 100 characters.'] });
    const prefs = await call(
      t,
      { cookie: z.cookie },
      'POST',
      `/api/users/self/prefs?o=${z.zone.id}`,
      {
        prefs: [{ pref_name: 'note', value: 'v'.repeat(10_001) }],
      },
      { origin: t.url },
    );
    expect(prefs.status).toBe(400);
  });
});
