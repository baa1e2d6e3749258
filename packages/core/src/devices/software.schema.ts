import { z } from 'zod';
import { ZOsFamily, ZPatchSeverity } from '../agent/agent-protocol.schema';
import { ZPaging } from '../paging.schema';
import { ZDevice, ZQueryBool } from './devices.schema';

/** Console payloads of `/api/orgs/{orgId}/packages` (docs/api/devices-agent-contract.md, "software"). */

/** `{orgId}` path parameter. */
export const ZOrgIdParams = z.object({
  /** The zone. */
  orgId: z.coerce.number().int().positive(),
});
export type OrgIdParams = z.infer<typeof ZOrgIdParams>;

/** `GET /api/orgs/{orgId}/packages?o=&page=&limit=&search=&os_family=&severity=&needs_update=`. */
export const ZSoftwareQuery = z
  .object({
    /** The zone (alias `org`); must equal `orgId` when given. */
    o: z.coerce.number().int().positive().optional(),
    /** Alias of `o`. */
    org: z.coerce.number().int().positive().optional(),
    ...ZPaging.shape,
    /** Substring of the package name. */
    search: z.string().max(200).optional(),
    /** OS family. */
    os_family: ZOsFamily.optional(),
    /** Highest severity of its pending updates. */
    severity: ZPatchSeverity.optional(),
    /** Only packages that some device (true) or no device (false) needs to update. */
    needs_update: ZQueryBool.optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type SoftwareQuery = z.infer<typeof ZSoftwareQuery>;

/** One package aggregated over the zone's devices. */
export const ZSoftwareRow = z.object({
  /** Package name. */
  name: z.string(),
  /** OS family of the devices having it. */
  os_family: ZOsFamily,
  /** Devices having it installed. */
  installed_count: z.number().int(),
  /** Installed versions, distinct, sorted. */
  versions: z.array(z.string()),
  /** Devices with an update available for it. */
  needs_update_count: z.number().int(),
  /** Highest severity of its updates; null when none. */
  severity: ZPatchSeverity.nullable(),
  /** CVE ids its updates fix, distinct. */
  cves: z.array(z.string()),
});
export type SoftwareRow = z.infer<typeof ZSoftwareRow>;

/** `{ data, size }` of the software view. */
export const ZSoftwareList = z.object({
  /** The page's rows. */
  data: z.array(ZSoftwareRow),
  /** Total rows. */
  size: z.number().int(),
});
export type SoftwareList = z.infer<typeof ZSoftwareList>;

/** `GET /api/orgs/{orgId}/packages/devices?o=&name=&page=&limit=`: devices having a package. */
export const ZSoftwareDevicesQuery = z
  .object({
    /** The zone (alias `org`); must equal `orgId` when given. */
    o: z.coerce.number().int().positive().optional(),
    /** Alias of `o`. */
    org: z.coerce.number().int().positive().optional(),
    ...ZPaging.shape,
    /** Package name (exact). */
    name: z.string().min(1).max(300),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type SoftwareDevicesQuery = z.infer<typeof ZSoftwareDevicesQuery>;

/** `{ data, size }` of the devices having a package. */
export const ZSoftwareDeviceList = z.object({
  /** Devices (list rows). */
  data: z.array(ZDevice),
  /** Total rows. */
  size: z.number().int(),
});
export type SoftwareDeviceList = z.infer<typeof ZSoftwareDeviceList>;
