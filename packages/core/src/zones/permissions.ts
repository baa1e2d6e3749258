/**
 * The permission matrix of spec A section 6 as data. Permissions are pairs of action and
 * resource; a user may do X on Y in zone Z when the role held in Z grants it. The server
 * enforces these; the console uses the same data to show or hide.
 */
export const ACTIONS = ['create', 'delete', 'modify', 'execute', 'control', 'read', 'add', 'manage', 'invite'] as const;
export type Action = (typeof ACTIONS)[number];

export const RESOURCE_ACTIONS = {
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
} as const satisfies Record<string, readonly Action[]>;

export type Resource = keyof typeof RESOURCE_ACTIONS;
// `@__PURE__`: computed at load, left out of a bundle that does not use them (see roles.ts).
export const RESOURCES = /* @__PURE__ */ Object.keys(RESOURCE_ACTIONS) as Resource[];
export type Permission = { [R in Resource]: { resource: R; action: (typeof RESOURCE_ACTIONS)[R][number] } }[Resource];
export type PermissionKey = `${Resource}.${Action}`;

export function permissionKey(resource: Resource, action: Action): PermissionKey {
  return `${resource}.${action}`;
}

/** Every (resource, action) pair the matrix allows. */
export const ALL_PERMISSIONS: Permission[] = /* @__PURE__ */ RESOURCES.flatMap((resource) =>
  RESOURCE_ACTIONS[resource].map((action) => ({ resource, action }) as Permission),
);
