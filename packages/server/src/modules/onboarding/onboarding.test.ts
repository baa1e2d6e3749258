import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { clientAcrossDays } from '../../test/cve-fixtures';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';
import { enrollDevice } from '../../test/agents';

/** The quick start guide's steps flip as the real things happen in the zone, then the account is marked done. */

let t: TestApp;
let z: TestZone;
let other: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;

const doneOf = async () => {
  const res = await admin.get(`/api/onboarding?o=${z.o}`);
  expect(res.status).toBe(200);
  return {
    done: (res.body.steps as { key: string; done: boolean }[]).filter((s) => s.done).map((s) => s.key),
    completed: res.body.completed as boolean,
  };
};
const accountDone = async (accountId: number) =>
  (await t.db.select({ done: accounts.completedQsg }).from(accounts).where(eq(accounts.id, accountId)))[0]?.done;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('GET /api/onboarding', () => {
  it('flips each step when it happens, and marks the account done once all are', async () => {
    const accountId = z.zone.accountId;
    expect(await doneOf()).toEqual({ done: ['set_up'], completed: false });
    // A device enrolls but has sent no inventory yet.
    const bare = await enrollDevice(t, z.accessKey, { hostname: 'bare', os_family: 'linux' });
    expect(bare.id).toBeGreaterThan(0);
    expect((await doneOf()).done).toEqual(['set_up', 'add_device']);
    // Its first inventory: the scan finished.
    const device = await inventoriedDevice(t, z, 'first', { patches: [patch('openssl', 'critical')] });
    expect((await doneOf()).done).toEqual(['set_up', 'add_device', 'scan']);
    // The admin opens the prepatch report: results reviewed.
    expect((await admin.get(`/api/reports/prepatch?o=${z.o}`)).status).toBe(200);
    expect((await doneOf()).done).toEqual(['set_up', 'add_device', 'scan', 'review']);
    // A dry run does not count as patched.
    const install = async (data: Record<string, unknown>) => {
      const queued = await admin.post(`/api/servers/${device.id}/queues?o=${z.o}`, {
        command_type_name: 'InstallUpdate',
        args: { names: ['openssl'] },
      });
      expect(queued.status).toBe(201);
      const [handed] = await commandsOf(t, device);
      expect((await postResult(t, device, handed!.id, { status: 'success', exit_code: 0, data })).status).toBe(204);
    };
    await install({ simulated: true });
    expect((await doneOf()).completed).toBe(false);
    expect(await accountDone(accountId)).toBe(false);
    await install({});
    expect(await doneOf()).toEqual({ done: ['set_up', 'add_device', 'scan', 'review', 'patch'], completed: true });
    expect(await accountDone(accountId)).toBe(true);
    const profile = await admin.get(`/api/users/self?o=${z.o}`);
    expect(profile.status).toBe(200);
    expect(profile.body.account_completed_qsg).toBe(true);
  });

  it("answers 404 for another account's zone, and counts nothing of it", async () => {
    expect((await admin.get(`/api/onboarding?o=${other.o}`)).status).toBe(404);
    const own = clientAcrossDays(t, other.user);
    const res = await own.get(`/api/onboarding?o=${other.o}`);
    expect(res.status).toBe(200);
    expect(res.body.completed).toBe(false);
    expect(res.body.steps.filter((s: { done: boolean }) => s.done)).toHaveLength(1);
  });
});
