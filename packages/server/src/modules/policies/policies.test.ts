import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog } from '../../db/policies.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { flushLastSeen, checkinAs } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser } from '../../test/factories';
import {
  buildPolicyZone,
  customPolicyBody,
  inventoriedDevice,
  patchPolicyBody,
  requiredSoftwareBody,
  type TestZone,
} from '../../test/policy-fixtures';

/** The policies API through HTTP: CRUD, validation, permissions, clone, preview, the worklet catalogue. */

let t: TestApp;
let z: TestZone;
let other: TestZone;
const SUMMARY = 'One or more fields have an error. Please check and try again.';

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  const web = await inventoriedDevice(t, z, 'web-1');
  await inventoriedDevice(t, z, 'db-1');
  const tagged = await z.admin.put(`/api/servers/${web.id}?o=${z.o}`, { tags: ['prod'] });
  if (tagged.status !== 200) throw new Error(`tag: ${tagged.status}`);
  await checkinAs(t, web.token);
  await flushLastSeen(t);
});
afterAll(async () => {
  await t.close();
});

describe('/api/policies CRUD', () => {
  it('creates, reads, lists, replaces and deletes a policy, logging each action', async () => {
    const body = patchPolicyBody(
      [z.defaultGroupId],
      { patch_rule: 'filter', filter_type: 'include', filters: ['open*'] },
      {
        name: 'Browsers weekly',
        schedule_days: 64,
        schedule_weeks_of_month: 4,
        schedule_months: 8190,
        schedule_time: '02:00',
      },
    );
    const created = await z.admin.post(`/api/policies?o=${z.o}`, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Browsers weekly',
      policy_type_name: 'patch',
      organization_id: z.o,
      status: 'active',
      server_groups: [z.defaultGroupId],
      server_count: 2,
      // The 2nd Saturday of March 2026 at 02:00 UTC.
      next_run_time: '2026-03-14T02:00:00.000Z',
      needs_configuration: false,
      compliance: { compliant: 0, non_compliant: 0, pending: 0 },
      configuration: { patch_rule: 'filter', filter_type: 'include', filters: ['open*'], missed_patch_window: false },
    });
    const id = created.body.id;

    expect((await z.admin.get(`/api/policies/${id}?o=${z.o}`)).body.name).toBe('Browsers weekly');
    const listed = await z.admin.get(`/api/policies?o=${z.o}&type=patch&search=browsers`);
    expect(listed.body).toMatchObject({ size: 1, data: [{ id }] });
    expect((await z.admin.get(`/api/policies?o=${z.o}&type=custom`)).body.size).toBe(0);

    const replaced = await z.admin.put(`/api/policies/${id}?o=${z.o}`, {
      ...body,
      name: 'Browsers',
      status: 'inactive',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Browsers', status: 'inactive', next_run_time: null });
    const typeChange = await z.admin.put(`/api/policies/${id}?o=${z.o}`, customPolicyBody([z.defaultGroupId]));
    expect(typeChange.status).toBe(400);
    expect(typeChange.body.errors).toEqual({ policy_type_name: ['The type of a policy cannot change.'] });

    expect((await z.admin.del(`/api/policies/${id}?o=${z.o}`)).status).toBe(204);
    expect((await z.admin.get(`/api/policies/${id}?o=${z.o}`)).status).toBe(404);

    const log = await t.db
      .select({ action: activityLog.action, userId: activityLog.userId, via: activityLog.via })
      .from(activityLog)
      .where(and(eq(activityLog.objectType, 'policy'), eq(activityLog.objectId, String(id))));
    expect(log.map((l) => l.action).sort()).toEqual(['policy.create', 'policy.delete', 'policy.update']);
    expect(log.every((l) => l.userId === z.user.id && l.via === 'session')).toBe(true);
  });

  it('answers 400 with the spec’s summary and each field’s message', async () => {
    const res = await z.admin.post(`/api/policies?o=${z.o}`, {
      ...patchPolicyBody([z.defaultGroupId], {
        patch_rule: 'all',
        custom_notification_deferment_periods: [1, 1, 30, 4],
        custom_notification_max_delays: 11,
        device_filters: [{ field: 'tag', op: 'in', value: [] }],
      }),
      name: '',
      schedule_time: '25:00',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(SUMMARY);
    expect(res.body.errors.name).toEqual(['This field is required.']);
    expect(res.body.errors['configuration.custom_notification_max_delays']).toEqual([
      'Value must be a number between 1 and 10.',
    ]);
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['schedule_time', 'configuration.custom_notification_deferment_periods']),
    );

    const foreignGroup = await z.admin.post(
      `/api/policies?o=${z.o}`,
      patchPolicyBody([other.defaultGroupId], { patch_rule: 'all' }),
    );
    expect(foreignGroup.status).toBe(400);
    expect(foreignGroup.body).toMatchObject({
      message: SUMMARY,
      errors: { server_groups: ['This group does not exist.'] },
    });

    const worklet = await z.admin.post(
      `/api/policies?o=${z.o}`,
      customPolicyBody([z.defaultGroupId], { remediation_code: ' ' }),
    );
    expect(worklet.status).toBe(400);
    expect(worklet.body.errors['configuration.remediation_code']).toEqual(['Remediation code is required']);
  });

  it('hides another zone’s policies (404) and refuses a read-only role’s changes (403) per type', async () => {
    const theirs = await other.admin.post(`/api/policies?o=${other.o}`, requiredSoftwareBody([other.defaultGroupId]));
    expect(theirs.status).toBe(201);
    const id = theirs.body.id;
    // With our own zone: not found; with theirs: not our zone.
    expect((await z.admin.get(`/api/policies/${id}?o=${z.o}`)).status).toBe(404);
    expect((await z.admin.get(`/api/policies/${id}?o=${other.o}`)).status).toBe(404);
    expect((await z.admin.put(`/api/policies/${id}?o=${z.o}`, requiredSoftwareBody([z.defaultGroupId]))).status).toBe(
      404,
    );
    expect((await z.admin.post(`/api/policies/${id}/action?o=${z.o}`, { action: 'remediateAll' })).status).toBe(404);
    expect((await z.admin.get(`/api/policies/${id}/runs?o=${z.o}`)).status).toBe(404);

    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } });
    const ro = clientFor(t, { cookie: await cookieFor(t, reader) });
    const mine = await z.admin.post(
      `/api/policies?o=${z.o}`,
      customPolicyBody([z.defaultGroupId], {}, { name: 'Readable' }),
    );
    expect((await ro.get(`/api/policies/${mine.body.id}?o=${z.o}`)).status).toBe(200);
    expect((await ro.get(`/api/policies?o=${z.o}`)).status).toBe(200);
    for (const body of [
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }),
      customPolicyBody([z.defaultGroupId]),
      requiredSoftwareBody([z.defaultGroupId]),
    ]) {
      expect((await ro.post(`/api/policies?o=${z.o}`, body)).status).toBe(403);
    }
    expect((await ro.put(`/api/policies/${mine.body.id}?o=${z.o}`, customPolicyBody([z.defaultGroupId]))).status).toBe(
      403,
    );
    expect((await ro.del(`/api/policies/${mine.body.id}?o=${z.o}`)).status).toBe(403);
    expect((await ro.post(`/api/policies/${mine.body.id}/action?o=${z.o}`, { action: 'remediateAll' })).status).toBe(
      403,
    );
    expect((await ro.put(`/api/approvals/1?o=${z.o}`, { manual_approval: true })).status).toBe(403);

    // A Patch Operator has full rights on patch policies but only executes worklets.
    const operator = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 5 } });
    const op = clientFor(t, { cookie: await cookieFor(t, operator) });
    expect(
      (await op.post(`/api/policies?o=${z.o}`, patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }))).status,
    ).toBe(201);
    expect((await op.post(`/api/policies?o=${z.o}`, customPolicyBody([z.defaultGroupId]))).status).toBe(403);
    expect((await op.post(`/api/policies/${mine.body.id}/action?o=${z.o}`, { action: 'remediateAll' })).status).toBe(
      202,
    );
  });
});

describe('preview, clone, stats', () => {
  it('previews the devices a draft targets, with its device filters', async () => {
    const all = await z.admin.post(`/api/policies/preview?o=${z.o}`, { server_groups: [z.defaultGroupId] });
    expect(all.body.data.map((d: { hostname: string }) => d.hostname).sort()).toEqual(['db-1', 'web-1']);
    const tagged = await z.admin.post(`/api/policies/preview?o=${z.o}`, {
      server_groups: [z.defaultGroupId],
      device_filters: [{ field: 'tag', op: 'in', value: ['PROD'] }],
    });
    expect(tagged.body).toMatchObject({ size: 1, data: [{ hostname: 'web-1', tags: ['prod'], connected: true }] });
    const none = await z.admin.post(`/api/policies/preview?o=${z.o}`, { server_groups: [other.defaultGroupId] });
    expect(none.body.size).toBe(0);
  });

  it('clones as a job; copies start inactive and need configuration', async () => {
    const source = await z.admin.post(
      `/api/policies?o=${z.o}`,
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Original', schedule_days: 254 }),
    );
    const started = await z.admin.post(`/api/policies/${source.body.id}/clone?o=${z.o}`, {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ policy_name: 'Clone of Original', policy_type_name: 'patch' });
    let job = started.body;
    for (let i = 0; i < 100 && job.status !== 'completed' && job.status !== 'error'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = (await z.admin.get(`/api/policies/clone-jobs/${started.body.id}?o=${z.o}`)).body;
    }
    expect(job).toMatchObject({ status: 'completed', progress: 100, data: [{ org_id: z.o, zone_id: z.zone.uuid }] });
    const copy = await z.admin.get(`/api/policies/${job.data[0].policy_id}?o=${z.o}`);
    expect(copy.body).toMatchObject({
      name: 'Clone of Original',
      status: 'inactive',
      needs_configuration: true,
      next_run_time: null,
      server_groups: [z.defaultGroupId],
    });
    // Another account's zone: not the caller's to write into.
    const foreign = await z.admin.post(`/api/policies/${source.body.id}/clone?o=${z.o}`, {
      target_zone_ids: [other.zone.uuid],
    });
    expect(foreign.status).toBe(404);
    expect((await other.admin.get(`/api/policies/clone-jobs/${started.body.id}?o=${other.o}`)).status).toBe(404);
  });

  it('counts devices per standing for each policy', async () => {
    const stats = await z.admin.get(`/api/policystats?o=${z.o}`);
    expect(stats.status).toBe(200);
    expect(stats.body[0]).toEqual(
      expect.objectContaining({ organization_id: z.o, compliant: expect.any(Number), noncompliant: 0 }),
    );
  });
});

describe('/api/worklet-catalog', () => {
  it('lists the shipped catalogue with filters and paging, and serves one entry', async () => {
    const all = await z.admin.get(`/api/worklet-catalog?o=${z.o}&limit=500`);
    expect(all.status).toBe(200);
    expect(all.body.size).toBeGreaterThanOrEqual(25);
    expect(all.body.results).toHaveLength(all.body.size);
    const linux = await z.admin.get(`/api/worklet-catalog?o=${z.o}&os_family=linux&limit=2&page=0`);
    expect(linux.body.results).toHaveLength(2);
    expect(linux.body.results.every((w: { os_family: string }) => w.os_family === 'linux')).toBe(true);
    const first = all.body.results[0];
    const one = await z.admin.get(`/api/worklet-catalog/${first.id}?o=${z.o}`);
    expect(one.body).toMatchObject({ id: first.id, evaluation_code: first.evaluation_code });
    expect((await z.admin.get(`/api/worklet-catalog/no-such-worklet?o=${z.o}`)).status).toBe(404);
    // The family's links name an entry by `{uuid}-{legacy_id}`.
    const linked = await z.admin.get(`/api/worklet-catalog/${first.uuid}-${first.legacy_id}?o=${z.o}`);
    expect(linked.body).toMatchObject({ id: first.id });
  });

  it('a worklet policy made from an entry remembers it, through edits; an unknown entry is refused', async () => {
    const entry = (await z.admin.get(`/api/worklet-catalog/linux-firewall-enabled?o=${z.o}`)).body;
    const body = customPolicyBody([z.defaultGroupId], {
      evaluation_code: entry.evaluation_code,
      remediation_code: entry.remediation_code,
    });
    const created = await z.admin.post(`/api/policies?o=${z.o}`, {
      ...body,
      name: 'From the catalogue',
      community_worklet_id: entry.legacy_id,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ community_worklet_id: entry.legacy_id, community_worklet_uuid: entry.uuid });
    const edited = await z.admin.put(`/api/policies/${created.body.id}?o=${z.o}`, {
      ...body,
      name: 'From the catalogue, renamed',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'From the catalogue, renamed', community_worklet_id: entry.legacy_id });

    const unknown = await z.admin.post(`/api/policies?o=${z.o}`, {
      ...body,
      name: 'Nowhere',
      community_worklet_id: 99_999,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ community_worklet_id: ['This worklet is not in the catalogue.'] });
    const patchOne = await z.admin.post(`/api/policies?o=${z.o}`, {
      ...patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }),
      community_worklet_id: entry.legacy_id,
    });
    expect(patchOne.status).toBe(400);
  });
});
