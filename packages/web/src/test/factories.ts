import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { Device } from '@patchwell/core/devices/devices.schema';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import type { ClientConfig } from '@patchwell/core/shell/config.schema';
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

/** A device list row as GET /api/servers returns it (core's ZDevice). */
export function buildDevice(overrides: Partial<Device> = {}): Device {
  const id = overrides.id ?? nextId++;
  return {
    id,
    uuid: `device-${id}`,
    name: `host-${id}`,
    display_name: `host-${id}`,
    custom_name: null,
    hostname: `host-${id}`,
    os_family: 'linux',
    os_name: 'Debian GNU/Linux',
    os_version: '12',
    agent_version: '0.1.0',
    server_group_id: 1,
    group_name: 'Default',
    tags: [],
    ip_addrs: ['203.0.113.10'],
    initializing: false,
    ip_addrs_private: ['10.0.0.10'],
    connected: true,
    last_seen_at: '2026-11-21T12:00:00Z',
    needs_reboot: false,
    pending_patches: 3,
    compliance: 'pending',
    compliance_reason: '3 patches pending (none Critical or High), and no policy has run on this device.',
    create_time: '2026-11-01T00:00:00Z',
    next_patch_time: null,
    ...overrides,
  };
}

/** A server group as GET /api/servergroups returns it (core's ZServerGroup). */
export function buildGroup(overrides: Partial<ServerGroup> = {}): ServerGroup {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `Group ${id}`,
    organization_id: 1,
    parent_server_group_id: null,
    refresh_interval: 1440,
    checkin_interval_s: 60,
    notes: '',
    server_count: 0,
    default: false,
    ...overrides,
  };
}

/** `GET /api/shared/js/config`'s answer (or the block sent with a page), with help links on help.example. */
export function buildClientConfig(overrides: Partial<ClientConfig> = {}): ClientConfig {
  return {
    environment: 'test',
    version: '1',
    countries: [],
    help_links: [{ label: 'Knowledge Base', url: 'https://help.example/kb' }],
    support_url: 'https://help.example/support',
    docs_url: 'https://help.example/docs',
    session: { idle_timeout_minutes: 30, max_lifetime_minutes: 720 },
    signup_enabled: true,
    password_reset_enabled: false,
    ...overrides,
  };
}
