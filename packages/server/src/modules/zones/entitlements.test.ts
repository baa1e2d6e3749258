import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_RULES, planFor, type Feature } from '@patchwell/core/rules/entitlements';
import type { Plan } from '@patchwell/core/rules/tiers';
import { organizations } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { buildZoneWithKey } from '../../test/agents';
import { clientFor, cookieFor, type Answer } from '../../test/authz-helpers';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { makeCertificate } from '../../test/idp-fixtures';
import { customPolicyBody } from '../../test/policy-fixtures';

/**
 * Every route a plan gates (core/rules/entitlements.ts), through HTTP: a zone one plan below
 * the feature's is refused with 'Feature Unavailable', a zone on the feature's plan and one
 * on an unexpired trial of Basic are let through. Remote control's gate (the same
 * `requireFeature`) is in remote-sessions.test.ts, which has the online device it needs.
 */

let t: TestApp;
let dns: TestDns;
let idpCertificate: string;
let n = 0;

beforeAll(async () => {
  dns = await startTestDns();
  t = await startTestApp({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '200' } });
  idpCertificate = makeCertificate('plans-idp.patchwell.test');
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const DAY = 86_400_000;

type World = Awaited<ReturnType<typeof buildZoneWithKey>> & {
  o: number;
  groupId: number;
  /** What the setup made for the gated call (a policy, a connection, a domain). */
  made: Record<string, string | number>;
  unique: string;
};

async function world(): Promise<World> {
  const z = await buildZoneWithKey(t);
  const groups = await z.admin.get(`/api/servergroups?o=${z.zone.id}`);
  const groupId = (groups.body as { id: number; default: boolean }[]).find((g) => g.default)!.id;
  return { ...z, o: z.zone.id, groupId, made: {}, unique: `p${++n}x${Date.now().toString(36)}` };
}

const connectionBody = (w: World, name: string) => ({
  name,
  provision_type: 'invite',
  domains: [`${w.unique}.example`],
  certificate: idpCertificate,
  sso_url: 'https://idp.example.test/sso',
  entity_id: 'https://idp.example.test/',
});

async function multipart(w: World, path: string, filename: string, content: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(content)]), filename);
  const res = await t.request(path, { method: 'POST', headers: { cookie: w.cookie }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

function expectOk(res: Answer, what: string) {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
}

type Gate = {
  feature: Feature;
  /** Builds what the call needs, on a Complete zone (the factories' default plan). */
  setup?: (w: World) => Promise<void>;
  call: (w: World) => Promise<Answer>;
  /** The refusal's code, when the feature keeps one the console already knows. */
  code?: string;
};

const requiredSoftwareBody = (w: World) => ({
  ...customPolicyBody([w.groupId]),
  name: 'Firefox everywhere',
  policy_type_name: 'required_software',
  configuration: { package_name: 'Firefox', package_version: '125.0', os_family: 'windows' },
});

const accountUserBody = (w: World, roleId: number) => ({
  email: `${w.unique}-member@example.test`,
  firstname: 'Mia',
  lastname: 'Member',
  account_rbac_role: 'no-global-access',
  zones: [{ zone_id: w.o, role_id: roleId }],
});

/** A member of the zone with `roleId`, invited by the account's administrator: their id. */
async function accountUser(w: World, roleId: number): Promise<number> {
  const res = await w.admin.post(`/api/accounts/${w.account.id}/users`, accountUserBody(w, roleId));
  expectOk(res, 'member');
  return res.body.id as number;
}

const GATES: Record<string, Gate> = {
  'POST /api/policies (custom)': {
    feature: 'worklets',
    call: (w) => w.admin.post(`/api/policies?o=${w.o}`, customPolicyBody([w.groupId])),
  },
  'POST /api/policies (required_software)': {
    feature: 'software_management',
    call: (w) => w.admin.post(`/api/policies?o=${w.o}`, requiredSoftwareBody(w)),
  },
  'PUT /api/policies/{id} (custom)': {
    feature: 'worklets',
    setup: async (w) => {
      const res = await w.admin.post(`/api/policies?o=${w.o}`, customPolicyBody([w.groupId]));
      expectOk(res, 'policy');
      w.made.policy = res.body.id;
    },
    call: (w) =>
      w.admin.put(`/api/policies/${w.made.policy}?o=${w.o}`, customPolicyBody([w.groupId], {}, { name: 'Renamed' })),
  },
  'PUT /api/policies/{id} (required_software)': {
    feature: 'software_management',
    setup: async (w) => {
      const res = await w.admin.post(`/api/policies?o=${w.o}`, requiredSoftwareBody(w));
      expectOk(res, 'policy');
      w.made.policy = res.body.id;
    },
    call: (w) =>
      w.admin.put(`/api/policies/${w.made.policy}?o=${w.o}`, { ...requiredSoftwareBody(w), name: 'Renamed' }),
  },
  'POST /api/policies/{id}/clone (custom)': {
    feature: 'worklets',
    setup: async (w) => {
      const res = await w.admin.post(`/api/policies?o=${w.o}`, customPolicyBody([w.groupId]));
      expectOk(res, 'policy');
      w.made.policy = res.body.id;
    },
    call: (w) => w.admin.post(`/api/policies/${w.made.policy}/clone?o=${w.o}`, {}),
  },
  'POST /api/policies/installers': {
    feature: 'software_management',
    call: (w) => multipart(w, `/api/policies/installers?o=${w.o}`, 'setup.sh', '#!/bin/sh\necho installed\n'),
  },
  'POST /api/users/self/api_keys (a zone)': {
    feature: 'api_access',
    call: (w) => w.admin.post(`/api/users/self/api_keys?o=${w.o}`, { name: 'CI', zone_id: w.o }),
  },
  'POST /api/users/self/api_keys (every zone)': {
    feature: 'api_access',
    call: (w) => w.admin.post(`/api/users/self/api_keys?o=${w.o}`, { name: 'CI', zone_id: null }),
  },
  'PUT /api/orgs/{id}/require-mfa': {
    feature: 'mfa_enforcement',
    call: (w) => w.admin.put(`/api/orgs/${w.o}/require-mfa?o=${w.o}`, { enabled: true }),
  },
  'PUT /api/accounts/{accountId}/require-mfa': {
    feature: 'mfa_enforcement',
    call: (w) => w.admin.put(`/api/accounts/${w.account.id}/require-mfa`, { enabled: true }),
  },
  'PUT /api/orgs/{id}/require-sso': {
    feature: 'sso',
    setup: async (w) => {
      expectOk(await w.admin.post(`/api/accounts/${w.account.id}/connections`, connectionBody(w, 'IdP')), 'connection');
    },
    call: (w) => w.admin.put(`/api/orgs/${w.o}/require-sso?o=${w.o}`, { enabled: true }),
  },
  'POST /api/accounts/{accountId}/connections': {
    feature: 'sso',
    call: (w) => w.admin.post(`/api/accounts/${w.account.id}/connections`, connectionBody(w, 'IdP')),
  },
  'PUT /api/accounts/{accountId}/connections/{connectionId}': {
    feature: 'sso',
    setup: async (w) => {
      const res = await w.admin.post(`/api/accounts/${w.account.id}/connections`, connectionBody(w, 'IdP'));
      expectOk(res, 'connection');
      w.made.connection = res.body.id;
    },
    call: (w) =>
      w.admin.put(`/api/accounts/${w.account.id}/connections/${w.made.connection}`, connectionBody(w, 'IdP 2')),
  },
  'POST /api/accounts/{accountId}/domains': {
    feature: 'sso',
    call: (w) => w.admin.post(`/api/accounts/${w.account.id}/domains`, { name: `${w.unique}.example` }),
  },
  'POST /api/accounts/{accountId}/domains/{domainId}/verify': {
    feature: 'sso',
    setup: async (w) => {
      const res = await w.admin.post(`/api/accounts/${w.account.id}/domains`, { name: `${w.unique}.example` });
      expectOk(res, 'domain');
      w.made.domain = res.body.id;
    },
    call: (w) => w.admin.post(`/api/accounts/${w.account.id}/domains/${w.made.domain}/verify`),
  },
  'POST /api/inviteUser (Patch Operator)': {
    feature: 'role_based_access',
    call: (w) => w.admin.post(`/api/inviteUser?o=${w.o}`, { email: `${w.unique}@example.test`, role_id: 5 }),
  },
  'PUT /api/users/{id} (Read Only → Billing Administrator)': {
    feature: 'role_based_access',
    setup: async (w) => {
      w.made.member = await accountUser(w, 2);
    },
    call: (w) => w.admin.put(`/api/users/${w.made.member}?o=${w.o}`, { role_id: 3 }),
  },
  'POST /api/accounts/{accountId}/users (Zone Operator)': {
    feature: 'role_based_access',
    call: (w) => w.admin.post(`/api/accounts/${w.account.id}/users`, accountUserBody(w, 4)),
  },
  'PUT /api/accounts/{accountId}/users/{userId} (Read Only → Zone Operator)': {
    feature: 'role_based_access',
    setup: async (w) => {
      w.made.member = await accountUser(w, 2);
    },
    call: (w) =>
      w.admin.put(`/api/accounts/${w.account.id}/users/${w.made.member}`, { zones: [{ zone_id: w.o, role_id: 4 }] }),
  },
  'POST /api/orgs': {
    feature: 'create_zone',
    code: 'zones.tier_required',
    call: (w) => w.admin.post(`/api/orgs?o=${w.o}`, { name: `Zone ${w.unique}` }),
  },
};

const BELOW: Record<Plan, Plan | null> = { patch: null, manage: 'patch', tier3: 'manage' };

async function setPlan(w: World, plan: Plan, trialEndTime: Date | null = null) {
  await t.db.update(organizations).set({ plan, trialEndTime }).where(eq(organizations.id, w.o));
}

describe.each(Object.entries(GATES))('%s', (_route, gate) => {
  const needed = planFor(gate.feature);
  const below = BELOW[needed]!;

  it(`refuses a zone on ${below} with 'Feature Unavailable' (needs ${needed})`, async () => {
    const w = await world();
    await gate.setup?.(w);
    await setPlan(w, below);
    const res = await gate.call(w);
    expect(res.status).toBe(403);
    if (gate.code) {
      expect(res.body.code).toBe(gate.code);
    } else {
      expect(res.body.code).toBe('plans.feature_unavailable');
      expect(res.body.message).toContain('Feature Unavailable');
      expect(res.body.message).toContain(FEATURE_RULES[gate.feature].label);
    }
  });

  it(`lets a zone on ${needed} through`, async () => {
    const w = await world();
    await gate.setup?.(w);
    await setPlan(w, needed);
    const res = await gate.call(w);
    expect(res.status, res.text).toBeLessThan(300);
  });

  it('lets a Basic zone on an unexpired trial through', async () => {
    const w = await world();
    await gate.setup?.(w);
    await setPlan(w, 'patch', new Date(t.clock.now().getTime() + DAY));
    const res = await gate.call(w);
    expect(res.status, res.text).toBeLessThan(300);
  });
});

describe('a requirement outside the plan', () => {
  it('can still be turned off, so a zone that left the plan can undo it', async () => {
    const w = await world();
    expectOk(await w.admin.put(`/api/orgs/${w.o}/require-mfa?o=${w.o}`, { enabled: true }), 'require');
    await setPlan(w, 'patch');
    const res = await w.admin.put(`/api/orgs/${w.o}/require-mfa?o=${w.o}`, { enabled: false });
    expect(res.status).toBe(200);
    expect(res.body.require_mfa).toBe(false);
  });

  it('refuses after the trial’s end time even before the trial-end job ran', async () => {
    const w = await world();
    await setPlan(w, 'patch', new Date(t.clock.now().getTime() + DAY));
    expectOk(await w.admin.post(`/api/users/self/api_keys?o=${w.o}`, { name: 'one', zone_id: w.o }), 'key');
    t.clock.advance(DAY);
    // A fresh session: the first one idled out over the day.
    const admin = clientFor(t, { cookie: await cookieFor(t, w.user) });
    const res = await admin.post(`/api/users/self/api_keys?o=${w.o}`, { name: 'two', zone_id: w.o });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('plans.feature_unavailable');
  });
});

describe('zone roles outside the plan', () => {
  it('gives Zone Administrator and Read Only on Basic', async () => {
    const w = await world();
    await setPlan(w, 'patch');
    const member = await accountUser(w, 2);
    expectOk(await w.admin.put(`/api/users/${member}?o=${w.o}`, { role_id: 1 }), 'to administrator');
    const invited = await w.admin.post(`/api/inviteUser?o=${w.o}`, { email: `${w.unique}-r@example.test`, role_id: 2 });
    expect(invited.status, invited.text).toBeLessThan(300);
  });

  it('keeps a delegated role a member already holds when the zone left the plan', async () => {
    const w = await world();
    const member = await accountUser(w, 5);
    await setPlan(w, 'patch');
    const same = await w.admin.put(`/api/accounts/${w.account.id}/users/${member}`, {
      firstname: 'Renamed',
      zones: [{ zone_id: w.o, role_id: 5 }],
    });
    expect(same.status, same.text).toBe(200);
    expect((await w.admin.put(`/api/users/${member}?o=${w.o}`, { role_id: 5 })).status).toBe(200);
    // Another delegated role is a new grant.
    const other = await w.admin.put(`/api/users/${member}?o=${w.o}`, { role_id: 4 });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain('Role-based access');
  });
});
