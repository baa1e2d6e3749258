import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';

let nextId = 100;

export function buildZone(overrides: Partial<ProfileOrg> = {}): ProfileOrg {
  const id = overrides.id ?? nextId++;
  return {
    id,
    zone_id: `zone-${id}`,
    name: `Zone ${id}`,
    parent_id: 1,
    plan: 'tier3',
    trial_end_time: null,
    trial_expired: false,
    disabled: false,
    create_time: '2026-01-01T00:00:00Z',
    saml: { enabled: false, redirect: null },
    ...overrides,
  };
}

/** A profile as GET /api/users/self returns it: a zone administrator (role 1) of each zone. */
export function buildProfile(overrides: Partial<Profile> = {}): Profile {
  const orgs = overrides.orgs ?? [buildZone({ id: 1, name: 'Acme', parent_id: 1 })];
  const admin = [...ROLE_GRANTS[1]];
  return {
    id: 7,
    uuid: 'user-7',
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'ada@example.com',
    account_id: 1,
    account_name: 'Acme',
    account_created_at: '2026-01-01T00:00:00Z',
    account_completed_qsg: true,
    account_rbac_role: 'no-global-access',
    is_global_admin: false,
    rbac_roles: orgs.map((o) => ({ id: 1, name: 'Zone Administrator', organization_id: o.id })),
    rbac_role: 'Zone Administrator',
    parent_org: [{ id: 1, plan: 'tier3', trial_end_time: null, trial_expired: false }],
    features: { ...FEATURE_FLAGS },
    locked: false,
    saml_enabled: false,
    tfa_enabled: false,
    sso_enabled: false,
    ext_auth0_skip_mfa: false,
    server_groups: [],
    tags: [],
    status: 'active',
    metadata: { overviewReportRun: false, prepatchReportRun: false },
    prefs: [],
    permissions: Object.fromEntries(orgs.map((o) => [String(o.id), admin])),
    session: { expires_at: '2026-12-31T00:00:00Z', idle_timeout_minutes: 30 },
    ...overrides,
    orgs,
  };
}
