import { z } from 'zod';
import { ZWindowOccurrence } from '../maintenance/window-occurrence.schema';
import {
  COMMAND_RESULT_STATUSES,
  ZAgentCommandArgs,
  ZAgentCommandType,
  ZInventorySystem,
  ZOsFamily,
  ZPatchSeverity,
} from '../agent/agent-protocol.schema';
import { ZPaging } from '../paging.schema';

/**
 * Console payloads of the devices API (`/api/servers`, docs/api/devices-agent-contract.md,
 * "Devices"). Query schemas accept the zone as `o` (alias `org`) and normalise it to `o`.
 */

/** A boolean query parameter: `true`/`false`/`1`/`0`. */
export const ZQueryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** The zone of a call: `o`, alias `org`. */
const zoneFields = {
  /** The zone (alias `org`). */
  o: z.coerce.number().int().positive().optional(),
  /** Alias of `o`. */
  org: z.coerce.number().int().positive().optional(),
};

/** Device statuses (online while last check-in + interval + grace has not passed). */
export const DEVICE_STATUSES = ['online', 'offline'] as const;
/** Compliance states of a device. */
export const COMPLIANCE_STATES = ['compliant', 'pending', 'needs_attention'] as const;
export const ZCompliance = z.enum(COMPLIANCE_STATES);
export type Compliance = z.infer<typeof ZCompliance>;

/** Fields the device list sorts by. */
export const DEVICE_SORT_FIELDS = [
  'name',
  'hostname',
  'os_family',
  'os_name',
  'os_version',
  'agent_version',
  'last_seen_at',
  'create_time',
  'pending_patches',
  'compliance',
  'needs_reboot',
  'group_name',
] as const;
export type DeviceSortField = (typeof DEVICE_SORT_FIELDS)[number];

/** The device list's filters (shared by `GET /api/servers` and its CSV export). */
/** Most devices in one bulk action, or in an `ids` filter. */
export const BATCH_MAX = 500;

export const ZDeviceFilters = z.object({
  /** `field:asc|desc`, field one of DEVICE_SORT_FIELDS. Default `name:asc`. */
  sort: z
    .string()
    .regex(new RegExp(`^(${DEVICE_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Invalid sort.')
    .optional(),
  /** Group id. */
  group: z.coerce.number().int().positive().optional(),
  /** OS family. */
  os_family: ZOsFamily.optional(),
  /** Online or offline. */
  status: z.enum(DEVICE_STATUSES).optional(),
  /** Only devices that do (true) or do not (false) wait for a reboot. */
  needs_reboot: ZQueryBool.optional(),
  /** Compliance state. */
  compliance: ZCompliance.optional(),
  /**
   * Only devices missing a critical patch published more than this many whole days ago
   * (the dashboard's "missing critical patches" figure uses 14).
   */
  critical_older_than: z.coerce.number().int().min(0).max(3650).optional(),
  /** Devices carrying this tag. */
  tag: z.string().min(1).max(100).optional(),
  /** Substring of the name, host name, custom name, or an IP address. */
  search: z.string().max(200).optional(),
  /** Only these devices, up to 500 (`ids[]=1&ids[]=2`): a row menu's export of one device. */
  ids: z
    .preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().positive()).min(1).max(BATCH_MAX))
    .optional(),
});

/** `GET /api/servers?o=&page=&limit=&sort=&…filters` and `GET /api/servers/export.csv`. */
export const ZListDevicesQuery = z
  .object({ ...zoneFields, ...ZPaging.shape, ...ZDeviceFilters.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type ListDevicesQuery = z.infer<typeof ZListDevicesQuery>;

/** A device as a list row. */
export const ZDevice = z.object({
  /** Numeric device id. */
  id: z.number().int(),
  /** Public device identifier (uuid). */
  uuid: z.string(),
  /** Host name as the agent reports it (the family's `name`). */
  name: z.string(),
  /** Custom name when set, else host name. */
  display_name: z.string(),
  /** Name an administrator gave it; null when none. */
  custom_name: z.string().nullable(),
  /** Host name. */
  hostname: z.string(),
  /** OS family. */
  os_family: ZOsFamily,
  /** OS name. */
  os_name: z.string(),
  /** OS version. */
  os_version: z.string(),
  /** Agent version. */
  agent_version: z.string(),
  /** The device's group. */
  server_group_id: z.number().int(),
  /** The group's name. */
  group_name: z.string(),
  /** Tags. */
  tags: z.array(z.string()),
  /** Public IP addresses. */
  ip_addrs: z.array(z.string()),
  /** Private IP addresses. */
  ip_addrs_private: z.array(z.string()),
  /** Whether the device is online (last check-in + interval + grace not passed). */
  connected: z.boolean(),
  /** Last check-in (ISO 8601); null before the first. */
  last_seen_at: z.string().nullable(),
  /** True until its first inventory arrives (remote control waits for it). */
  initializing: z.boolean(),
  /** Whether it waits for a reboot. */
  needs_reboot: z.boolean(),
  /** Number of available patches. */
  pending_patches: z.number().int(),
  /** Compliance state (devices/compliance.ts: the worst of its policy statuses, or from its patches without one). */
  compliance: ZCompliance,
  /** Why it has that state, one sentence (e.g. "Needs remediation: 2 High patches older than 30 days from policy Servers nightly failed to install."). */
  compliance_reason: z.string(),
  /** Enrolment time (ISO 8601). */
  create_time: z.string(),
  /** Next scheduled patch time (ISO 8601); null until policies schedule one. */
  next_patch_time: z.string().nullable(),
});
export type Device = z.infer<typeof ZDevice>;

/** `{ data, size }` of the device list. */
export const ZDeviceList = z.object({
  /** The page's rows. */
  data: z.array(ZDevice),
  /** Total rows matching the filters. */
  size: z.number().int(),
});
export type DeviceList = z.infer<typeof ZDeviceList>;

/** Statuses of a command: waiting or running, then one of the agent's final statuses. */
export const COMMAND_STATUSES = ['pending', 'in_progress', ...COMMAND_RESULT_STATUSES] as const;
export const ZCommandStatus = z.enum(COMMAND_STATUSES);
export type CommandStatus = z.infer<typeof ZCommandStatus>;

/** A command as the console sees it. */
export const ZDeviceCommand = z.object({
  /** Command id. */
  id: z.number().int(),
  /** Agent command type. */
  type: ZAgentCommandType,
  /** Arguments. */
  args: ZAgentCommandArgs,
  /** Status. */
  status: ZCommandStatus,
  /** Exit code, when finished. */
  exit_code: z.number().int().nullable(),
  /** Last 16 KiB of stdout. */
  stdout_tail: z.string().nullable(),
  /** Last 16 KiB of stderr. */
  stderr_tail: z.string().nullable(),
  /** When queued (ISO 8601). */
  created_at: z.string(),
  /** When the agent picked it up (ISO 8601). */
  started_at: z.string().nullable(),
  /** When it finished (ISO 8601). */
  finished_at: z.string().nullable(),
  /** Id of the user who queued it; null for the system. */
  created_by: z.number().int().nullable(),
});
export type DeviceCommand = z.infer<typeof ZDeviceCommand>;

/** `GET /api/servers/{id}?o=`: the row with its details. */
export const ZDeviceDetail = ZDevice.extend({
  /** The inventory's system part; null before the first inventory. */
  detail: ZInventorySystem.partial().nullable(),
  /** Administrator's notes. */
  notes: z.string(),
  /** Installed packages. */
  package_count: z.number().int(),
  /** When the last inventory arrived (ISO 8601). */
  last_inventory_at: z.string().nullable(),
  /** The latest 20 commands. */
  commands: z.array(ZDeviceCommand),
  /**
   * The maintenance window of the device's group under way or opening next (the device starts
   * policy runs and remediation tasks only inside one); null when its group has none, or none will open.
   */
  next_maintenance_window: ZWindowOccurrence.nullable(),
});
export type DeviceDetail = z.infer<typeof ZDeviceDetail>;

/** `{id}` path parameter of a device. */
export const ZDeviceIdParams = z.object({
  /** Device id. */
  id: z.coerce.number().int().positive(),
});
export type DeviceIdParams = z.infer<typeof ZDeviceIdParams>;

/** `PUT /api/servers/{id}?o=`. */
export const ZUpdateDeviceBody = z.object({
  /** Custom name; empty or null clears it. */
  custom_name: z.string().trim().max(255).nullable().optional(),
  /** Move to this group (of the same zone). */
  server_group_id: z.number().int().positive().optional(),
  /** Replace the tags. */
  tags: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  /** Notes. */
  notes: z.string().max(10_000).optional(),
});
export type UpdateDeviceBody = z.infer<typeof ZUpdateDeviceBody>;

/** `GET /api/servers/{id}/packages?o=&page=&limit=&search=&needs_update=`. */
export const ZDevicePackagesQuery = z
  .object({
    ...zoneFields,
    ...ZPaging.shape,
    /** Substring of the package name. */
    search: z.string().max(200).optional(),
    /** Only packages with (true) or without (false) an available update. */
    needs_update: ZQueryBool.optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type DevicePackagesQuery = z.infer<typeof ZDevicePackagesQuery>;

/** An available update of a package. */
export const ZPackagePatch = z.object({
  /** Version it brings. */
  version: z.string(),
  /** Severity. */
  severity: ZPatchSeverity,
  /** CVE ids. */
  cves: z.array(z.string()),
  /** KB id, when any. */
  kb: z.string().nullable(),
  /** Whether it needs a reboot. */
  reboot_required: z.boolean(),
});
export type PackagePatch = z.infer<typeof ZPackagePatch>;

/** One package of a device (installed, or a new update such as a KB, with version ''). */
export const ZDevicePackage = z.object({
  /** Package name. */
  name: z.string(),
  /** Installed version ('' when not installed, e.g. a new KB). */
  version: z.string(),
  /** Source. */
  source: z.string().nullable(),
  /** The available update, or null. */
  patch: ZPackagePatch.nullable(),
});
export type DevicePackage = z.infer<typeof ZDevicePackage>;

/** `{ data, size }` of a device's packages. */
export const ZDevicePackageList = z.object({
  /** The page's rows. */
  data: z.array(ZDevicePackage),
  /** Total rows. */
  size: z.number().int(),
});
export type DevicePackageList = z.infer<typeof ZDevicePackageList>;

/** Command names the console queues (the family's `command_type_name`). */
export const QUEUE_COMMAND_TYPES = [
  'GetOS',
  'InstallAllUpdates',
  'InstallUpdate',
  'InstallPackage',
  'RemovePackage',
  'Reboot',
] as const;
export const ZQueueCommandType = z.enum(QUEUE_COMMAND_TYPES);
export type QueueCommandType = z.infer<typeof ZQueueCommandType>;

/** How each console command maps to an agent command. */
export const QUEUE_COMMAND_TO_AGENT: Record<QueueCommandType, z.infer<typeof ZAgentCommandType>> = {
  GetOS: 'scan',
  InstallAllUpdates: 'install_all',
  InstallUpdate: 'install_updates',
  InstallPackage: 'install_package',
  RemovePackage: 'remove_package',
  Reboot: 'reboot',
};

/** `POST /api/servers/{id}/queues?o=` → 201 the command. */
export const ZQueueCommandBody = z
  .object({
    /** The command. */
    command_type_name: ZQueueCommandType,
    /** Arguments (`names` for InstallUpdate, `package`/`version` for packages, `delay_s` for Reboot). */
    args: ZAgentCommandArgs.optional(),
  })
  .refine((b) => b.command_type_name !== 'InstallUpdate' || (b.args?.names?.length ?? 0) > 0, {
    path: ['args', 'names'],
    message: 'Name at least one update.',
  })
  .refine((b) => !['InstallPackage', 'RemovePackage'].includes(b.command_type_name) || Boolean(b.args?.package), {
    path: ['args', 'package'],
    message: 'Name the package.',
  });
export type QueueCommandBody = z.infer<typeof ZQueueCommandBody>;

/** `GET /api/servers/{id}/commands?o=&page=&limit=`. */
export const ZDeviceCommandsQuery = z
  .object({ ...zoneFields, ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type DeviceCommandsQuery = z.infer<typeof ZDeviceCommandsQuery>;

/** `{ data, size }` of a device's commands, newest first. */
export const ZDeviceCommandList = z.object({
  /** The page's rows. */
  data: z.array(ZDeviceCommand),
  /** Total rows. */
  size: z.number().int(),
});
export type DeviceCommandList = z.infer<typeof ZDeviceCommandList>;

/** Bulk actions on devices. */
export const BATCH_ACTIONS = ['tag', 'untag', 'group', 'scan', 'reboot', 'remove'] as const;

/** `POST /api/servers/batch?o=` → `{ affected }`. */
export const ZDeviceBatchBody = z
  .object({
    /** What to do. */
    action: z.enum(BATCH_ACTIONS),
    /** Device ids, 1 to 500. */
    ids: z.array(z.number().int().positive()).min(1).max(BATCH_MAX),
    /** Tags to add (`tag`) or remove (`untag`). */
    tags: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
    /** Target group (`group`). */
    server_group_id: z.number().int().positive().optional(),
  })
  .refine((b) => !['tag', 'untag'].includes(b.action) || (b.tags?.length ?? 0) > 0, {
    path: ['tags'],
    message: 'Name at least one tag.',
  })
  .refine((b) => b.action !== 'group' || b.server_group_id !== undefined, {
    path: ['server_group_id'],
    message: 'Choose a group.',
  });
export type DeviceBatchBody = z.infer<typeof ZDeviceBatchBody>;

/** Answer of a bulk action. */
export const ZDeviceBatchResult = z.object({
  /** Devices the action applied to (ids of other zones are ignored). */
  affected: z.number().int(),
});
export type DeviceBatchResult = z.infer<typeof ZDeviceBatchResult>;

/** `GET /api/info?o=`: how to add devices. */
export const ZAgentInfo = z.object({
  /** The server's public URL agents connect to: `PATCHWELL_PUBLIC_URL`, else the address the console used. */
  server_url: z.string(),
  /**
   * True when `server_url` is a loopback address (localhost, 127.0.0.0/8, ::1): agents on
   * other machines cannot reach it, so the console says to set `PATCHWELL_PUBLIC_URL`.
   * Optional: older servers leave it out.
   */
  server_url_is_loopback: z.boolean().optional(),
  /** The zone's access key; null unless the caller has Organization.manage. */
  access_key: z.string().nullable(),
  /**
   * Command lines per OS, run as root or Administrator: download the agent, check its SHA-256,
   * enrol with the key (or a placeholder), install it as a service. Each needs Node.js 20+.
   */
  install: z.object({
    /** Linux (sh): /opt/patchwell, a systemd unit. */
    linux: z.string(),
    /** macOS (sh): /opt/patchwell, a launchd daemon. */
    mac: z.string(),
    /** Windows (PowerShell): %ProgramData%\Patchwell, a startup task as SYSTEM. */
    windows: z.string(),
  }),
  /** The agent this server hands out. Optional: servers before it was added leave it out. */
  agent: z
    .object({
      /** `GET` it without signing in. */
      download_url: z.string(),
      /** Hex SHA-256 of the file; null when the server has not built the agent (the download answers 404). */
      sha256: z.string().nullable(),
      /** Size in bytes; null when not built. */
      size_bytes: z.number().int().nullable(),
    })
    .optional(),
});
export type AgentInfo = z.infer<typeof ZAgentInfo>;

/** `GET /api/dashboard?o=`: device counts from real data. */
export const ZDashboard = z.object({
  /** Device counts by status. */
  devices: z.object({
    /** All devices (not removed). */
    total: z.number().int(),
    /** Online now. */
    online: z.number().int(),
    /** Offline now. */
    offline: z.number().int(),
    /** Waiting for a reboot. */
    needs_reboot: z.number().int(),
  }),
  /** Devices per OS family. */
  by_os: z.array(
    z.object({
      /** OS family. */
      os_family: ZOsFamily,
      /** Devices. */
      count: z.number().int(),
    }),
  ),
  /** Devices per compliance state (the same state as the device list's; devices/compliance.ts). */
  compliance: z.object({
    /** Up to date with every policy (or, without a policy, no pending patches). */
    compliant: z.number().int(),
    /** A policy's work is pending (or, without a policy, patches pending, none Critical or High). */
    pending: z.number().int(),
    /** A policy needs remediation (or, without a policy, Critical or High patches pending). */
    needs_attention: z.number().int(),
  }),
  /** Available patches over all devices. */
  patches: z.object({
    /** All pending patches. */
    pending: z.number().int(),
    /** Critical ones. */
    critical: z.number().int(),
    /** High ones. */
    high: z.number().int(),
  }),
});
export type Dashboard = z.infer<typeof ZDashboard>;

/** Whether a URL's host is this machine only: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1`, `0.0.0.0`. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === '::1' ||
    host === '0.0.0.0'
  );
}
