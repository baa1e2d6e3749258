import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app';
import { clientFor, cookieFor, type Caller } from './authz-helpers';
import { buildAccount, buildUser, buildZone } from './factories';

/**
 * The role table of spec A section 6, written out by hand (not imported from core): every
 * fixed role and the Global Administrator × every resource/action pair × the caller's own
 * zone, another zone of the same account, and a zone of another account. Each case asks
 * the server through `GET /api/permissions/check`, which runs the same check every
 * endpoint runs (`authz.require`): 200 allowed, 403 the role lacks it, 404 the zone is
 * not the caller's to see. Each caller is tried with a session and with an API key bound
 * to its own zone.
 */

/** The spec's table: resource → allowed actions. */
const MATRIX: Record<string, string[]> = {
  PatchPolicy: ['create', 'delete', 'modify', 'execute', 'read'],
  CustomPolicy: ['create', 'delete', 'modify', 'execute', 'read'],
  RequiredSoftwarePolicy: ['create', 'delete', 'modify', 'execute', 'read'],
  Endpoint: ['add', 'delete', 'manage', 'read', 'control'],
  ServerGroup: ['create', 'delete', 'modify', 'read'],
  Report: ['read'],
  Role: ['create', 'delete', 'modify', 'read'],
  Billing: ['modify', 'read'],
  Users: ['invite', 'delete', 'modify', 'read'],
  Organization: ['manage', 'create', 'read'],
  Package: ['manage', 'read'],
  Software: ['read'],
  Approval: ['create'],
  Saml: ['read', 'manage'],
  TFA: ['create', 'modify', 'delete', 'read'],
  Task: ['create', 'modify', 'execute', 'read'],
  Account: ['read', 'modify', 'delete'],
  AccountInvitation: ['create', 'read', 'modify', 'delete'],
};
const ALL_PAIRS = Object.entries(MATRIX).flatMap(([resource, actions]) => actions.map((a) => `${resource}.${a}`));

// "Read rights on a zone": the zone's operational data, not its people, billing or identity settings.
const READ_ONLY = [
  'PatchPolicy.read',
  'CustomPolicy.read',
  'RequiredSoftwarePolicy.read',
  'Endpoint.read',
  'ServerGroup.read',
  'Report.read',
  'Role.read',
  'Organization.read',
  'Package.read',
  'Software.read',
  'Task.read',
];

/** What each role may do in a zone where it is held (the product decision, literally). */
const EXPECTED: Record<string, string[]> = {
  'Zone Administrator': [
    'PatchPolicy.create',
    'PatchPolicy.delete',
    'PatchPolicy.modify',
    'PatchPolicy.execute',
    'PatchPolicy.read',
    'CustomPolicy.create',
    'CustomPolicy.delete',
    'CustomPolicy.modify',
    'CustomPolicy.execute',
    'CustomPolicy.read',
    'RequiredSoftwarePolicy.create',
    'RequiredSoftwarePolicy.delete',
    'RequiredSoftwarePolicy.modify',
    'RequiredSoftwarePolicy.execute',
    'RequiredSoftwarePolicy.read',
    'Endpoint.add',
    'Endpoint.delete',
    'Endpoint.manage',
    'Endpoint.read',
    'Endpoint.control',
    'ServerGroup.create',
    'ServerGroup.delete',
    'ServerGroup.modify',
    'ServerGroup.read',
    'Report.read',
    'Role.create',
    'Role.delete',
    'Role.modify',
    'Role.read',
    'Billing.modify',
    'Billing.read',
    'Users.invite',
    'Users.delete',
    'Users.modify',
    'Users.read',
    'Organization.manage',
    'Organization.create',
    'Organization.read',
    'Package.manage',
    'Package.read',
    'Software.read',
    'Approval.create',
    'Saml.read',
    'Saml.manage',
    'TFA.create',
    'TFA.modify',
    'TFA.delete',
    'TFA.read',
    'Task.create',
    'Task.modify',
    'Task.execute',
    'Task.read',
  ],
  'Read Only': READ_ONLY,
  'Billing Administrator': [...READ_ONLY, 'Billing.read', 'Billing.modify'],
  'Zone Operator': [
    ...READ_ONLY,
    'PatchPolicy.create',
    'PatchPolicy.delete',
    'PatchPolicy.modify',
    'PatchPolicy.execute',
    'CustomPolicy.create',
    'CustomPolicy.delete',
    'CustomPolicy.modify',
    'CustomPolicy.execute',
    'RequiredSoftwarePolicy.create',
    'RequiredSoftwarePolicy.delete',
    'RequiredSoftwarePolicy.modify',
    'RequiredSoftwarePolicy.execute',
    'ServerGroup.create',
    'ServerGroup.delete',
    'ServerGroup.modify',
    'Endpoint.add',
    'Endpoint.delete',
    'Endpoint.manage',
    'Endpoint.control',
    'Approval.create',
    'Package.manage',
    'Task.create',
    'Task.modify',
    'Task.execute',
  ],
  'Patch Operator': [
    ...READ_ONLY,
    'PatchPolicy.create',
    'PatchPolicy.delete',
    'PatchPolicy.modify',
    'PatchPolicy.execute',
    'CustomPolicy.execute',
    'Approval.create',
  ],
  'Global Administrator': ALL_PAIRS,
};

/** The role ids of spec A section 6 (1 admin, 2 read, 3 billing, 4 patch = Zone Operator) and ours for the Patch Operator. */
const ROLE_IDS: Record<string, number | 'global'> = {
  'Zone Administrator': 1,
  'Read Only': 2,
  'Billing Administrator': 3,
  'Zone Operator': 4,
  'Patch Operator': 5,
  'Global Administrator': 'global',
};

let t: TestApp;
let zones: { own: number; sameAccount: number; otherAccount: number };
const callers = new Map<string, { session: Caller; key: Caller }>();
let casesRun = 0;

beforeAll(async () => {
  t = await startTestApp();
  const account = await buildAccount(t.db);
  const own = await buildZone(t.db, { accountId: account.id, name: 'Own' });
  const sameAccount = await buildZone(t.db, { accountId: account.id, name: 'Sibling' });
  const other = await buildAccount(t.db);
  const otherAccount = await buildZone(t.db, { accountId: other.id, name: 'Foreign' });
  // Members of the other zones, so "not a member there" is not "nobody is".
  await buildUser(t.db, { accountId: account.id, zones: { [sameAccount.id]: 1 } });
  await buildUser(t.db, { accountId: other.id, globalAdmin: true, zones: { [otherAccount.id]: 1 } });
  zones = { own: own.id, sameAccount: sameAccount.id, otherAccount: otherAccount.id };

  for (const [name, roleId] of Object.entries(ROLE_IDS)) {
    const user = await buildUser(t.db, {
      accountId: account.id,
      globalAdmin: roleId === 'global',
      zones: roleId === 'global' ? {} : { [own.id]: roleId },
    });
    const session = { cookie: await cookieFor(t, user) };
    const res = await clientFor(t, session).post(`/api/users/self/api_keys?o=${own.id}`, { name: 'table' });
    expect(res.status).toBe(201);
    callers.set(name, { session, key: { bearer: res.body.key } });
  }
});

afterAll(async () => {
  // eslint-disable-next-line no-console -- issue 3 asks for these figures in the test output
  console.log(`authz table: ${casesRun} cases run`);
  await t.close();
});

type Where = keyof typeof zones;

/** The status the spec implies for `pair` asked by `role` (via a session or its zone key) in `where`. */
function expectedStatus(role: string, via: 'session' | 'key', where: Where, pair: string): number {
  const entersZone =
    where === 'own' || (where === 'sameAccount' && role === 'Global Administrator' && via === 'session');
  if (!entersZone) return 404;
  return EXPECTED[role]!.includes(pair) ? 200 : 403;
}

describe('the role table of spec A section 6', () => {
  it('has every pair of the spec’s table in it once', () => {
    expect(ALL_PAIRS).toHaveLength(59);
    for (const grants of Object.values(EXPECTED)) {
      expect(new Set(grants).size).toBe(grants.length);
      for (const pair of grants) expect(ALL_PAIRS).toContain(pair);
    }
  });

  for (const role of Object.keys(ROLE_IDS)) {
    for (const via of ['session', 'key'] as const) {
      it(`${role} (${via}): exactly the spec’s grants in its zone; 404 in zones it does not belong to`, async () => {
        const caller = callers.get(role)![via];
        const client = clientFor(t, caller);
        const mismatches: string[] = [];
        for (const where of Object.keys(zones) as Where[]) {
          const o = zones[where];
          const answers = await Promise.all(
            ALL_PAIRS.map(async (pair) => {
              const [resource, action] = pair.split('.');
              const res = await client.get(`/api/permissions/check?o=${o}&resource=${resource}&action=${action}`);
              return { pair, status: res.status };
            }),
          );
          for (const { pair, status } of answers) {
            casesRun++;
            const expected = expectedStatus(role, via, where, pair);
            if (status !== expected) mismatches.push(`${where} ${pair}: got ${status}, expected ${expected}`);
          }

          // `GET /api/permissions?o=` reports the same grants (or 404).
          const info = await client.get(`/api/permissions?o=${o}`);
          const entersZone = expectedStatus(role, via, where, 'Organization.read') !== 404;
          if (!entersZone) {
            if (info.status !== 404) mismatches.push(`${where} /api/permissions: got ${info.status}, expected 404`);
          } else {
            const mine: string[] = info.body?.mine?.[String(o)] ?? [];
            const want = EXPECTED[role]!;
            if (mine.length !== want.length || want.some((p) => !mine.includes(p))) {
              mismatches.push(`${where} /api/permissions: got [${[...mine].sort()}], expected [${[...want].sort()}]`);
            }
          }
        }
        expect(mismatches).toEqual([]);
      });
    }
  }
});
