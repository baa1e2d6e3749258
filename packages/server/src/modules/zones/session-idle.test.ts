import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccount, buildUser, buildZone } from '../../test/factories';

/**
 * Issue 13, /settings/security: the idle timeout a zone administrator sets really applies to
 * the sessions of the zone's users (the strictest among their zones), on the test clock.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("a zone's idle timeout", () => {
  it('keeps a session used within it and refuses one idle past it', async () => {
    const account = await buildAccount(t.db);
    const zone = await buildZone(t.db, { accountId: account.id });
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 1 } });
    const member = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
    const admin = clientFor(t, { cookie: await cookieFor(t, zoneAdmin) });
    const saved = await admin.put(`/api/orgs/${zone.id}/session-settings?o=${zone.id}`, {
      max_lifetime_minutes: 24 * 60,
      idle_timeout_minutes: 90,
    });
    expect(saved.status).toBe(200);

    const memberClient = clientFor(t, { cookie: await cookieFor(t, member) });
    // 80 idle minutes: past the 30-minute default, within the zone's 90.
    t.clock.advance(80 * ONE_MINUTE_MS);
    expect((await memberClient.get('/api/users/is-authenticated')).status).toBe(200);
    // 91 idle minutes since that request: refused.
    t.clock.advance(91 * ONE_MINUTE_MS);
    const idle = await memberClient.get('/api/users/is-authenticated');
    expect(idle.status).toBe(401);
    expect(idle.body.code).toBe('auth.session_expired');
    // The zone administrator's own session idled as long: refused too.
    expect((await admin.get('/api/users/is-authenticated')).status).toBe(401);
  });

  it('refuses bounds outside the spec ranges and lets only zone administrators set them', async () => {
    const account = await buildAccount(t.db);
    const zone = await buildZone(t.db, { accountId: account.id });
    const reader = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
    const readerClient = clientFor(t, { cookie: await cookieFor(t, reader) });
    const body = { max_lifetime_minutes: 60, idle_timeout_minutes: 30 };
    expect((await readerClient.put(`/api/orgs/${zone.id}/session-settings?o=${zone.id}`, body)).status).toBe(403);
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 1 } });
    const admin = clientFor(t, { cookie: await cookieFor(t, zoneAdmin) });
    const tooLong = await admin.put(`/api/orgs/${zone.id}/session-settings?o=${zone.id}`, {
      max_lifetime_minutes: 2160 * 60 + 1,
      idle_timeout_minutes: 29,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual({
      max_lifetime_minutes: ['Maximum session lifetime must be at most 2160 hours.'],
      idle_timeout_minutes: ['Idle timeout must be at least 30 minutes.'],
    });
  });
});
