import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZoneWithKey, enrollDevice } from '../test/agents';
import { startTestApp, type TestApp } from '../test/app';
import { dbInputError } from './db-input-errors';

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});

describe('numbers beyond what the database holds (found by the route fuzz test)', () => {
  it('answers an id or zone of 2^31 with 400, not 500', async () => {
    // Schemas with a maximum name the field; the database's own refusal is the net behind the others.
    const zone = await z.admin.get('/api/rbacroles?o=2147483648');
    expect(zone.status).toBe(400);
    expect(Object.keys(zone.body.errors)).toEqual(['o']);
    for (const url of ['/api/servers?o=2147483648', `/api/servers/2147483648?o=${z.zone.id}`]) {
      const res = await z.admin.get(url);
      expect([url, res.status]).toEqual([url, 400]);
    }
    const days = await z.admin.post(`/api/users/self/api_keys?o=${z.zone.id}`, { name: 'k', expires_in_days: 2 ** 31 });
    expect(days.status).toBe(400);
    expect(Object.keys(days.body.errors)).toEqual(['expires_in_days']);
  });

  it('answers 400 for any other value the database refuses as input', async () => {
    const res = await z.admin.post('/api/users/unlockaccount', { userid: 2 ** 31 });
    expect(res.status).toBeLessThan(500);
    expect(dbInputError({ cause: { code: '22003' } })).toEqual({
      code: 'bad_request',
      message: 'A number in the request is out of range.',
    });
    expect(dbInputError({ code: '23505' })).toBeUndefined();
  });
});

describe('PUT /api/servers/{id}', () => {
  it('answers an empty body with the device unchanged (it was a 500)', async () => {
    const device = await enrollDevice(t, z.accessKey, { hostname: 'unchanged' });
    const res = await z.admin.put(`/api/servers/${device.id}?o=${z.zone.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(device.id);
  });
});
