import { ALL_PERMISSIONS, permissionKey, type Action, type PermissionKey, type Resource } from './permissions';

/**
 * Fixed zone roles. Ids 1-4 are the spec's (1 admin, 2 read, 3 billing, 4 patch, where
 * "patch" is the Zone Operator, formerly patch administrator); the Patch Operator is 5.
 */
export const ZONE_ROLES = [
  { id: 1, key: 'zone-admin', name: 'Zone Administrator' },
  { id: 2, key: 'read-only', name: 'Read Only' },
  { id: 3, key: 'billing-admin', name: 'Billing Administrator' },
  { id: 4, key: 'zone-operator', name: 'Zone Operator' },
  { id: 5, key: 'patch-operator', name: 'Patch Operator' },
] as const;

export type ZoneRoleId = (typeof ZONE_ROLES)[number]['id'];
export type ZoneRoleKey = (typeof ZONE_ROLES)[number]['key'];
export const GLOBAL_ADMIN_ROLE_NAME = 'Global Administrator';
export const ACCOUNT_ROLES = ['global-admin', 'no-global-access'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

const POLICY_RESOURCES: Resource[] = ['PatchPolicy', 'CustomPolicy', 'RequiredSoftwarePolicy'];
// Account-level resources are granted only through the global administrator role.
const ACCOUNT_RESOURCES: Resource[] = ['Account', 'AccountInvitation'];

function grants(pred: (resource: Resource, action: Action) => boolean): ReadonlySet<PermissionKey> {
  return new Set(
    ALL_PERMISSIONS.filter((p) => pred(p.resource, p.action)).map((p) => permissionKey(p.resource, p.action)),
  );
}

// "Read rights on a zone" cover the zone's operational data. People, billing and
// identity settings are not part of them: Users, Billing, Saml and TFA are read only by
// the roles that manage them (a Read Only user lands on the fallback for those pages).
const PRIVATE_RESOURCES: Resource[] = ['Users', 'Billing', 'Saml', 'TFA'];

const zoneResource = (r: Resource) => !ACCOUNT_RESOURCES.includes(r);
const readAll = (r: Resource, a: Action) => zoneResource(r) && !PRIVATE_RESOURCES.includes(r) && a === 'read';

/** What each fixed role grants within its zone. */
// The grants are computed when the module loads; the `@__PURE__` marks let a bundle that
// imports only a name or a constant from here (the console's first download) leave them out.
export const ROLE_GRANTS: Record<ZoneRoleId, ReadonlySet<PermissionKey>> = {
  // Zone Administrator: full rights on the zone, including creating sibling zones under
  // the same parent (subject to the tier rule) from the organisation menu.
  1: /* @__PURE__ */ grants(zoneResource),
  2: /* @__PURE__ */ grants(readAll),
  3: /* @__PURE__ */ grants((r, a) => readAll(r, a) || r === 'Billing'),
  4: /* @__PURE__ */ grants(
    (r, a) =>
      readAll(r, a) ||
      POLICY_RESOURCES.includes(r) ||
      r === 'ServerGroup' ||
      (r === 'Endpoint' && ['add', 'delete', 'manage', 'control'].includes(a)) ||
      (r === 'Approval' && a === 'create') ||
      (r === 'Package' && a === 'manage') ||
      (r === 'Task' && a !== 'read'),
  ),
  5: /* @__PURE__ */ grants(
    (r, a) =>
      readAll(r, a) ||
      r === 'PatchPolicy' ||
      (r === 'CustomPolicy' && a === 'execute') ||
      (r === 'Approval' && a === 'create'),
  ),
};

/** The global administrator holds every permission in every zone of its account. */
export const GLOBAL_ADMIN_GRANTS: ReadonlySet<PermissionKey> = /* @__PURE__ */ grants(() => true);

export function roleById(id: number) {
  return ZONE_ROLES.find((r) => r.id === id);
}

/** May a holder of `roleId` (or a global administrator) do `action` on `resource`? */
export function roleAllows(
  role: { roleId: number | null; isGlobalAdmin: boolean },
  resource: Resource,
  action: Action,
): boolean {
  const key = permissionKey(resource, action);
  if (role.isGlobalAdmin) return GLOBAL_ADMIN_GRANTS.has(key);
  if (role.roleId === null) return false;
  return ROLE_GRANTS[role.roleId as ZoneRoleId]?.has(key) ?? false;
}
