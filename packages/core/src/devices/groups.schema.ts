import { z } from 'zod';

/** Console payloads of `/api/servergroups` (docs/api/devices-agent-contract.md, "Groups"). */

/** A server group. */
export const ZServerGroup = z.object({
  /** Group id. */
  id: z.number().int(),
  /** Name, unique in the zone. */
  name: z.string(),
  /** The zone. */
  organization_id: z.number().int(),
  /** Parent group; null for a top-level group. */
  parent_server_group_id: z.number().int().nullable(),
  /** Inventory refresh interval in minutes. */
  refresh_interval: z.number().int(),
  /** Agent check-in interval in seconds. */
  checkin_interval_s: z.number().int(),
  /** Notes. */
  notes: z.string(),
  /** Devices in the group. */
  server_count: z.number().int(),
  /** Whether this is the zone's default group (not deletable). */
  default: z.boolean(),
});
export type ServerGroup = z.infer<typeof ZServerGroup>;
export const ZServerGroupList = z.array(ZServerGroup);
export type ServerGroupList = z.infer<typeof ZServerGroupList>;

/** `POST /api/servergroups?o=` (ServerGroup.create). */
export const ZCreateServerGroupBody = z.object({
  /** Name, required, unique in the zone. */
  name: z.string().trim().min(1, 'Group name is required.').max(200),
  /** The zone; when given it must equal `o`. */
  organization_id: z.number().int().positive().optional(),
  /** Parent group (of the same zone). */
  parent_server_group_id: z.number().int().positive().nullable().optional(),
  /** Inventory refresh interval in minutes (240–1440). Default 1440. */
  refresh_interval: z.number().int().min(240).max(1440).optional(),
  /** Check-in interval in seconds (10–86,400). Default 60. */
  checkin_interval_s: z.number().int().min(10).max(86_400).optional(),
  /** Notes. */
  notes: z.string().max(10_000).optional(),
});
export type CreateServerGroupBody = z.infer<typeof ZCreateServerGroupBody>;

/** `PUT /api/servergroups/{id}?o=` (ServerGroup.modify): `organization_id` must equal `o`. */
export const ZUpdateServerGroupBody = ZCreateServerGroupBody.extend({
  /** The zone; must equal `o`. */
  organization_id: z.number().int().positive(),
});
export type UpdateServerGroupBody = z.infer<typeof ZUpdateServerGroupBody>;

/** `{id}` path parameter of a group. */
export const ZServerGroupIdParams = z.object({
  /** Group id. */
  id: z.coerce.number().int().positive(),
});
export type ServerGroupIdParams = z.infer<typeof ZServerGroupIdParams>;

/** `POST /api/servergroups/{id}/servers?o=`: move devices into the group. */
export const ZMoveDevicesBody = z.object({
  /** Device ids, 1 to 500 (other zones' ids are ignored). */
  ids: z.array(z.number().int().positive()).min(1).max(500),
});
export type MoveDevicesBody = z.infer<typeof ZMoveDevicesBody>;
