import { z } from 'zod';
import { TEXTS } from '../texts';
import { ACTIONS, RESOURCE_ACTIONS, RESOURCES, type Action, type Resource } from './permissions';

/**
 * Payloads of the zone, role and permission endpoints (docs/api/zones-users-contract.md).
 * Session settings use `ZSessionSettings` from `shell/session-settings.schema.ts`.
 */

/** Longest zone name (a person reads it in the zone menu; also keeps the unique index within its size). */
export const ZONE_NAME_MAX_LENGTH = 100;
const ZONE_NAME_TOO_LONG = `Zone name must be at most ${ZONE_NAME_MAX_LENGTH} characters.`;

/** A zone (organisation) as `GET /api/orgs`, `GET /api/orgs/{id}` and the account scope return it. */
export const ZZone = z.object({
  /** Numeric zone id: the `o` of every zone-scoped call. */
  id: z.number().int(),
  /** Public zone identifier (uuid). */
  zone_id: z.string(),
  /** Display name, unique per account (case-insensitive). */
  name: z.string(),
  /** The parent organisation (its plan decides the tier rule), null for a top-level zone. */
  parent_id: z.number().int().nullable(),
  /** Plan key (`patch`, `manage`, `tier3`, any case), null when none. */
  plan: z.string().nullable(),
  /** End of the trial (ISO 8601), null when never on trial. */
  trial_end_time: z.string().nullable(),
  /** Whether the trial has ended. */
  trial_expired: z.boolean(),
  /** A disabled zone is shown but cannot be worked in (trial zones beyond the first). */
  disabled: z.boolean(),
  /** Creation time (ISO 8601). */
  create_time: z.string(),
  /** Number of users holding a role in the zone. */
  user_count: z.number().int(),
  /** The caller's role name in the zone ('Global Administrator' for one); null when none. */
  role_name: z.string().nullable(),
});
export type Zone = z.infer<typeof ZZone>;

/** `GET /api/orgs` and `GET /api/accounts/{accountId}/zones`. */
export const ZZoneList = z.array(ZZone);
export type ZoneList = z.infer<typeof ZZoneList>;

/** `POST /api/orgs?o=` (the creation dialog): the new zone's parent is derived from `o`. */
export const ZCreateZoneBody = z.object({
  /** Zone name, required ('Zone name is required.'), unique per account. */
  name: z
    .string({ error: TEXTS.zones.nameRequiredDialog })
    .trim()
    .min(1, TEXTS.zones.nameRequiredDialog)
    .max(ZONE_NAME_MAX_LENGTH, ZONE_NAME_TOO_LONG),
});
export type CreateZoneBody = z.infer<typeof ZCreateZoneBody>;

/** `PUT /api/orgs/{id}` and `PUT /api/accounts/{accountId}/zones/{zoneId}` (the zone editor). */
export const ZUpdateZoneBody = z.object({
  /** Zone name, required ('Zone Name is required'), unique per account. */
  name: z
    .string({ error: TEXTS.zones.nameRequiredEditor })
    .trim()
    .min(1, TEXTS.zones.nameRequiredEditor)
    .max(ZONE_NAME_MAX_LENGTH, ZONE_NAME_TOO_LONG),
});
export type UpdateZoneBody = z.infer<typeof ZUpdateZoneBody>;

/** `POST /api/accounts/{accountId}/zones` (global setup). */
export const ZCreateAccountZoneBody = ZCreateZoneBody.extend({
  /** The parent organisation; omitted means the account's top-level organisation. */
  parent_id: z.number().int().positive().optional(),
});
export type CreateAccountZoneBody = z.infer<typeof ZCreateAccountZoneBody>;

/** `GET /api/orgs/{id}/access-key` and `POST /api/orgs/{id}/access-key/rotate`. */
export const ZAccessKey = z.object({
  /** The key agents enrol with; after a rotation the previous one no longer works. */
  access_key: z.string(),
});
export type AccessKey = z.infer<typeof ZAccessKey>;

/** One preference of a zone (`GET /api/orgs/self/prefs`). */
export const ZZonePref = z.object({
  /** The zone the preference belongs to. */
  organization_id: z.number().int(),
  /** Preference key. */
  pref_name: z.string(),
  /** Preference value, as a string. */
  value: z.string(),
});
export type ZonePref = z.infer<typeof ZZonePref>;
export const ZZonePrefList = z.array(ZZonePref);

/** `POST /api/orgs/self/prefs` and `POST /api/users/self/prefs`: preferences to set. */
export const ZSetPrefsBody = z.object({
  /** Each preference to create or overwrite. */
  prefs: z
    .array(
      z.object({
        /** Preference key. */
        pref_name: z.string().min(1).max(100),
        /** Preference value, as a string. */
        value: z.string().max(10_000),
      }),
    )
    .max(100),
});
export type SetPrefsBody = z.infer<typeof ZSetPrefsBody>;

/** One fixed role as `GET /api/rbacroles` lists it. */
export const ZRbacRole = z.object({
  /** Role id (1 admin, 2 read, 3 billing, 4 zone operator, 5 patch operator). */
  id: z.number().int(),
  /** Stable key, e.g. `zone-admin`. */
  key: z.string(),
  /** Display name, e.g. 'Zone Administrator'. */
  name: z.string(),
  /** What the role is for, one sentence. */
  description: z.string(),
  /** Permission keys the role grants (`Resource.action`). */
  permissions: z.array(z.string()),
});
export type RbacRole = z.infer<typeof ZRbacRole>;
export const ZRbacRoleList = z.array(ZRbacRole);

/** `GET /api/permissions`: the permission matrix and the caller's own permissions. */
export const ZPermissionsInfo = z.object({
  /** Each resource with the actions it allows, e.g. `{ PatchPolicy: ['create', …] }`. */
  resources: z.record(z.string(), z.array(z.string())),
  /** Every action name. */
  actions: z.array(z.string()),
  /** The caller's permission keys (`Resource.action`) per zone id. */
  mine: z.record(z.string(), z.array(z.string())),
});
export type PermissionsInfo = z.infer<typeof ZPermissionsInfo>;

/**
 * `GET /api/permissions/check?o=&resource=&action=`: may the caller do `action` on
 * `resource` in zone `o`? Answered by the same check every endpoint runs: 200 when
 * allowed, 403 when the caller's role in `o` lacks it, 404 when they may not enter `o`.
 */
export const ZPermissionCheckQuery = z
  .object({
    /** The zone (alias `org`); an API key bound to one zone stands for it when omitted. */
    o: z.coerce.number().int().positive().optional(),
    org: z.coerce.number().int().positive().optional(),
    /** A resource of the permission matrix, e.g. `PatchPolicy`. */
    resource: z.enum(RESOURCES as [Resource, ...Resource[]]),
    /** One of the resource's actions, e.g. `create`. */
    action: z.enum(ACTIONS),
  })
  .loose()
  .refine((q) => (RESOURCE_ACTIONS[q.resource] as readonly Action[]).includes(q.action), {
    path: ['action'],
    message: 'This action does not apply to this resource.',
  })
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type PermissionCheckQuery = z.infer<typeof ZPermissionCheckQuery>;

/** 200 answer of the permission check. */
export const ZPermissionCheck = z.object({
  /** Always true: a refusal is a 403 or 404. */
  allowed: z.literal(true),
});
export type PermissionCheck = z.infer<typeof ZPermissionCheck>;
