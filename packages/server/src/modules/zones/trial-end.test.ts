import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog } from '../../db/activity.schema';
import { organizations } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccount, buildUser, buildZone } from '../../test/factories';
import { endDueTrials } from './trial-end.service';

/**
 * The end of a trial, on the test clock moved past `trial_end_time`: the job marks the
 * trial expired, disables the account's zones beyond the first unless the account is on
 * Complete, logs each change, and never handles a trial twice.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

/** An account on `plan` whose three zones (a head office and two branches) share a trial ending in 3 days. */
async function trialAccount(plan: 'patch' | 'manage' | 'tier3') {
  const trialEndTime = new Date(t.clock.now().getTime() + 3 * DAY);
  const account = await buildAccount(t.db);
  const head = await buildZone(t.db, { accountId: account.id, name: 'Head', plan, trialEndTime });
  const branchA = await buildZone(t.db, { accountId: account.id, parentId: head.id, plan, trialEndTime });
  const branchB = await buildZone(t.db, { accountId: account.id, parentId: head.id, plan, trialEndTime });
  const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
  return { account, head, branchA, branchB, admin, trialEndTime };
}

async function zonesOf(ids: number[]) {
  return t.db
    .select({ id: organizations.id, disabled: organizations.disabled, trialExpired: organizations.trialExpired })
    .from(organizations)
    .where(inArray(organizations.id, ids))
    .orderBy(asc(organizations.id));
}

async function eventsOf(ids: number[]) {
  return t.db
    .select({ zone: activityLog.organizationId, action: activityLog.action, via: activityLog.via })
    .from(activityLog)
    .where(
      and(
        inArray(activityLog.organizationId, ids),
        inArray(activityLog.action, ['zone.trial_expired', 'zone.disable']),
      ),
    )
    .orderBy(asc(activityLog.id));
}

describe('the trial-end job', () => {
  it('does nothing before the end time, then disables the zones beyond the first once the clock passes it', async () => {
    const a = await trialAccount('manage');
    const ids = [a.head.id, a.branchA.id, a.branchB.id];
    t.clock.set(new Date(a.trialEndTime.getTime() - 1));
    const early = await endDueTrials(t.ctx);
    expect(early.expired.filter((id) => ids.includes(id))).toEqual([]);
    expect(await zonesOf(ids)).toEqual(ids.map((id) => ({ id, disabled: false, trialExpired: false })));

    t.clock.set(a.trialEndTime);
    const done = await endDueTrials(t.ctx);
    expect(done.expired.filter((id) => ids.includes(id))).toEqual(ids);
    expect(done.disabled.filter((id) => ids.includes(id))).toEqual([a.branchA.id, a.branchB.id]);
    expect(await zonesOf(ids)).toEqual([
      { id: a.head.id, disabled: false, trialExpired: true },
      { id: a.branchA.id, disabled: true, trialExpired: true },
      { id: a.branchB.id, disabled: true, trialExpired: true },
    ]);
    expect(await eventsOf(ids)).toEqual([
      { zone: a.head.id, action: 'zone.trial_expired', via: 'system' },
      { zone: a.branchA.id, action: 'zone.trial_expired', via: 'system' },
      { zone: a.branchA.id, action: 'zone.disable', via: 'system' },
      { zone: a.branchB.id, action: 'zone.trial_expired', via: 'system' },
      { zone: a.branchB.id, action: 'zone.disable', via: 'system' },
    ]);

    // A later tick finds nothing left: each trial ends once.
    t.clock.advance(DAY);
    const again = await endDueTrials(t.ctx);
    expect(again.expired.filter((id) => ids.includes(id))).toEqual([]);
    expect(await eventsOf(ids)).toHaveLength(5);
  });

  it('shows the ended trial and the disabled zone through the API, which refuses changes there', async () => {
    const a = await trialAccount('patch');
    t.clock.set(new Date(a.trialEndTime.getTime() + 60_000));
    await endDueTrials(t.ctx);
    const admin = clientFor(t, { cookie: await cookieFor(t, a.admin) });
    const branch = await admin.get(`/api/orgs/${a.branchA.id}?o=${a.branchA.id}`);
    expect(branch.body).toMatchObject({ disabled: true, trial_expired: true });
    const head = await admin.get(`/api/orgs/${a.head.id}?o=${a.head.id}`);
    expect(head.body).toMatchObject({ disabled: false, trial_expired: true });
    const group = await admin.post(`/api/servergroups?o=${a.branchA.id}`, { name: 'After the trial' });
    expect(group.status).toBe(403);
    expect(group.body.code).toBe('zones.disabled');
    // The profile tells the console the trial is over ('Trial Expired').
    const self = await admin.get(`/api/users/self?o=${a.head.id}`);
    expect(self.body.orgs.find((z: { id: number }) => z.id === a.head.id)).toMatchObject({ trial_expired: true });
  });

  it('disables nothing when the account is on Complete', async () => {
    const a = await trialAccount('tier3');
    const ids = [a.head.id, a.branchA.id, a.branchB.id];
    t.clock.set(a.trialEndTime);
    const done = await endDueTrials(t.ctx);
    expect(done.expired.filter((id) => ids.includes(id))).toEqual(ids);
    expect(done.disabled.filter((id) => ids.includes(id))).toEqual([]);
    expect((await zonesOf(ids)).every((z) => z.trialExpired && !z.disabled)).toBe(true);
  });

  it('handles each trial once when two nodes run the job at the same time', async () => {
    const a = await trialAccount('manage');
    const ids = [a.head.id, a.branchA.id, a.branchB.id];
    t.clock.set(a.trialEndTime);
    const [one, two] = await Promise.all([endDueTrials(t.ctx), endDueTrials(t.ctx)]);
    const handled = [...one.expired, ...two.expired].filter((id) => ids.includes(id)).sort((x, y) => x - y);
    expect(handled).toEqual(ids);
    expect(await eventsOf(ids)).toHaveLength(5);
  });

  it('leaves zones without a trial alone', async () => {
    const account = await buildAccount(t.db);
    const paid = await buildZone(t.db, { accountId: account.id, plan: 'patch' });
    const second = await buildZone(t.db, { accountId: account.id, plan: 'patch' });
    t.clock.advance(365 * DAY);
    await endDueTrials(t.ctx);
    expect(await zonesOf([paid.id, second.id])).toEqual([
      { id: paid.id, disabled: false, trialExpired: false },
      { id: second.id, disabled: false, trialExpired: false },
    ]);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, second.id));
    expect(row?.trialEndTime).toBeNull();
  });
});
