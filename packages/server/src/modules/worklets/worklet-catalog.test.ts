import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccountWithUser, buildUser } from '../../test/factories';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('/api/worklet-catalog without `o` (spec B section 7)', () => {
  it('answers an entry and the list to a global administrator and to a zone user', async () => {
    const { account, zone, user } = await buildAccountWithUser(t.db);
    const viewer = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
    for (const who of [user, viewer]) {
      const client = clientFor(t, { cookie: await cookieFor(t, who) });
      const list = await client.get('/api/worklet-catalog?limit=1');
      expect(list.status).toBe(200);
      const id = list.body.results[0].id as string;
      const one = await client.get(`/api/worklet-catalog/${id}`);
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(id);
      expect((await client.get('/api/worklet-catalog/no-such-worklet')).status).toBe(404);
    }
  });

  it('refuses a user who may read it in no zone (403), and anyone not signed in (401)', async () => {
    const { account } = await buildAccountWithUser(t.db);
    const zoneless = await buildUser(t.db, { accountId: account.id, zones: {} });
    const client = clientFor(t, { cookie: await cookieFor(t, zoneless) });
    expect((await client.get('/api/worklet-catalog/linux-firewall-enabled')).status).toBe(403);
    expect((await clientFor(t, {}).get('/api/worklet-catalog/linux-firewall-enabled')).status).toBe(401);
  });
});
