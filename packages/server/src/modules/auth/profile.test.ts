import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProfile } from '@patchwell/core/auth/profile.schema';
import { featureFlags, userPrefs } from '../../db/schema';
import { buildAccount, buildUser, buildZone } from '../../test/factories';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** An account with zones named to test sorting, a child zone and a trial. */
async function accountWithZones() {
  const account = await buildAccount(t.db, { name: 'Globex' });
  const beta = await buildZone(t.db, { accountId: account.id, name: 'beta', plan: 'manage' });
  const alpha = await buildZone(t.db, {
    accountId: account.id,
    name: 'Alpha',
    plan: 'tier3',
    trialEndTime: new Date(t.clock.now().getTime() + 86_400_000),
  });
  const child = await buildZone(t.db, { accountId: account.id, name: 'Gamma', parentId: beta.id, plan: 'patch' });
  return { account, alpha, beta, child };
}

async function profileOf(email: string, password: string, query = '') {
  const { cookie } = await t.signIn(email, password);
  const res = await t.request(`/api/users/self${query}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ZProfile.parse(await bodyOf(res));
}

describe('GET /api/users/self', () => {
  it('lists a zone user’s zones sorted by name with their role and the permissions it grants', async () => {
    const { account, alpha, beta, child } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [beta.id]: 2, [child.id]: 4 } });
    const profile = await profileOf(user.email, user.password);

    expect(profile.is_global_admin).toBe(false);
    expect(profile.account_rbac_role).toBe('no-global-access');
    expect(profile.account_name).toBe('Globex');
    expect(profile.orgs.map((o) => o.name)).toEqual(['beta', 'Gamma']);
    expect(profile.orgs.some((o) => o.id === alpha.id)).toBe(false);
    expect(profile.rbac_roles).toEqual([
      { id: 2, name: 'Read Only', organization_id: beta.id },
      { id: 4, name: 'Zone Operator', organization_id: child.id },
    ]);
    expect(profile.rbac_role).toBe('Read Only'); // first zone by name
    expect(profile.permissions[String(beta.id)]).toContain('Endpoint.read');
    expect(profile.permissions[String(beta.id)]).not.toContain('PatchPolicy.create');
    expect(profile.permissions[String(child.id)]).toContain('PatchPolicy.create');
    expect(profile.permissions[String(child.id)]).not.toContain('Account.read');
  });

  it('gives the role name of zone o', async () => {
    const { account, beta, child } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [beta.id]: 2, [child.id]: 4 } });
    const profile = await profileOf(user.email, user.password, `?o=${child.id}`);
    expect(profile.rbac_role).toBe('Zone Operator');
  });

  it('falls back to the first zone when o is not one of the user’s zones', async () => {
    const { account, alpha, beta } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [beta.id]: 3 } });
    const profile = await profileOf(user.email, user.password, `?o=${alpha.id}`);
    expect(profile.rbac_role).toBe('Billing Administrator');
  });

  it('gives a global administrator every zone of the account, the global role name and all permissions', async () => {
    const { account, alpha, beta, child } = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true, zones: { [alpha.id]: 1 } });
    const profile = await profileOf(admin.email, admin.password);
    expect(profile.is_global_admin).toBe(true);
    expect(profile.orgs.map((o) => o.id)).toEqual([alpha.id, beta.id, child.id]);
    expect(profile.rbac_role).toBe('Global Administrator');
    expect(profile.permissions[String(child.id)]).toContain('Account.delete');
  });

  it('describes zones and their parent organisations, including trials', async () => {
    const { account, alpha, beta, child } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [alpha.id]: 1, [child.id]: 1 } });
    const profile = await profileOf(user.email, user.password);
    const alphaOrg = profile.orgs.find((o) => o.id === alpha.id)!;
    expect(alphaOrg).toMatchObject({ plan: 'tier3', trial_expired: false, parent_id: null, disabled: false });
    expect(alphaOrg.trial_end_time).toBe(alpha.trialEndTime!.toISOString());
    expect(alphaOrg.zone_id).toBe(alpha.uuid);
    // Gamma's parent (beta) is reported even though the user has no role there.
    expect(profile.parent_org.map((p) => p.id).sort()).toEqual([alpha.id, beta.id].sort());
    expect(profile.parent_org.find((p) => p.id === beta.id)).toEqual({
      id: beta.id,
      plan: 'manage',
      trial_end_time: null,
      trial_expired: false,
    });
  });

  it('marks a trial that has ended as expired', async () => {
    const { account, alpha } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [alpha.id]: 1 } });
    t.clock.advance(2 * 86_400_000);
    const profile = await profileOf(user.email, user.password);
    expect(profile.orgs[0]!.trial_expired).toBe(true);
  });

  it('resolves feature flags for zone o: defaults, then the account, then the zone', async () => {
    const { account, alpha, beta } = await accountWithZones();
    await t.db.insert(featureFlags).values([
      { accountId: account.id, organizationId: null, name: 'mo', enabled: true },
      { accountId: account.id, organizationId: null, name: 'remote_control', enabled: true },
      { accountId: account.id, organizationId: beta.id, name: 'remote_control', enabled: false },
      { accountId: account.id, organizationId: beta.id, name: 'automated_vulnerability_remediation', enabled: false },
    ]);
    const user = await buildUser(t.db, { accountId: account.id, zones: { [alpha.id]: 1, [beta.id]: 1 } });
    const inAlpha = await profileOf(user.email, user.password, `?o=${alpha.id}`);
    expect(inAlpha.features).toMatchObject({
      mo: true,
      remote_control: true,
      automated_vulnerability_remediation: true,
    });
    const inBeta = await profileOf(user.email, user.password, `?org=${beta.id}`);
    expect(inBeta.features).toMatchObject({
      mo: true,
      remote_control: false,
      automated_vulnerability_remediation: false,
    });
    expect(inBeta.features.clone_policy).toBe(false);
  });

  it('includes the user’s preferences and account fields', async () => {
    const { account, alpha } = await accountWithZones();
    const user = await buildUser(t.db, {
      accountId: account.id,
      firstname: 'Ada',
      lastname: 'Lovelace',
      zones: { [alpha.id]: 2 },
    });
    await t.db.insert(userPrefs).values({ userId: user.id, prefName: 'theme', value: 'dark' });
    const profile = await profileOf(user.email, user.password);
    expect(profile).toMatchObject({
      id: user.id,
      uuid: user.uuid,
      firstname: 'Ada',
      lastname: 'Lovelace',
      account_id: account.id,
      account_completed_qsg: false,
      locked: false,
      status: 'active',
      tfa_enabled: false,
      saml_enabled: false,
      prefs: [{ user_id: user.id, pref_name: 'theme', value: 'dark' }],
      metadata: { overviewReportRun: false, prepatchReportRun: false },
    });
  });

  it('rejects an o that is not a positive integer with a 400 naming the field', async () => {
    const { account, alpha } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [alpha.id]: 2 } });
    const { cookie } = await t.signIn(user.email, user.password);
    const res = await t.request('/api/users/self?o=abc', { headers: { cookie } });
    expect(res.status).toBe(400);
    const body = await bodyOf(res);
    expect(body.code).toBe('validation');
    expect(Object.keys(body.errors)).toEqual(['o']);
  });
});
