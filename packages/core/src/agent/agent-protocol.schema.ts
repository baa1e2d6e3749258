import { z } from 'zod';
import { ZRemoteSessionCommand } from '../remote/remote-sessions.schema';

/**
 * The agent protocol under `/api/agent/v1` (docs/api/devices-agent-contract.md, "Agent
 * protocol"). Shared by the server, which validates with these schemas, and the agent,
 * which is typed by them.
 */

/** Operating-system families a device may report. */
export const OS_FAMILIES = ['linux', 'mac', 'windows'] as const;
export const ZOsFamily = z.enum(OS_FAMILIES);
export type OsFamily = z.infer<typeof ZOsFamily>;

/** Severity of an available patch. */
export const PATCH_SEVERITIES = ['critical', 'high', 'medium', 'low', 'none', 'unknown'] as const;
export const ZPatchSeverity = z.enum(PATCH_SEVERITIES);
export type PatchSeverity = z.infer<typeof ZPatchSeverity>;

/** Commands the agent executes. */
export const AGENT_COMMAND_TYPES = [
  'scan',
  'install_all',
  'install_updates',
  'install_package',
  'remove_package',
  'run_script',
  'reboot',
  'remote_session',
] as const;
export const ZAgentCommandType = z.enum(AGENT_COMMAND_TYPES);
export type AgentCommandType = z.infer<typeof ZAgentCommandType>;

/** Final statuses an agent reports for a command. */
export const COMMAND_RESULT_STATUSES = ['success', 'error', 'timed_out', 'canceled'] as const;
export const ZCommandResultStatus = z.enum(COMMAND_RESULT_STATUSES);
export type CommandResultStatus = z.infer<typeof ZCommandResultStatus>;

/** Most characters kept of a command's stdout or stderr (16 KiB). */
export const COMMAND_TAIL_MAX = 16 * 1024;
/** Most installed-software rows in one inventory. */
export const INVENTORY_SOFTWARE_MAX = 20_000;
/** Most available patches in one inventory. */
export const INVENTORY_PATCHES_MAX = 5_000;
/** Largest inventory body in bytes (8 MiB). */
export const INVENTORY_BODY_MAX_BYTES = 8 * 1024 * 1024;
/** Longest long-poll wait of a check-in, in seconds. */
export const CHECKIN_WAIT_MAX_S = 30;

/** `POST /api/agent/v1/enroll`: a device registers with its zone's access key. */
export const ZEnrollBody = z.object({
  /** The zone's access key (the zone is the key's). */
  access_key: z.string().min(1).max(256),
  /** Stable machine identifier (e.g. /etc/machine-id); the same one in the same zone gets the same device. */
  machine_id: z.string().min(1).max(200),
  /** The device's host name. */
  hostname: z.string().min(1).max(255),
  /** OS family. */
  os_family: ZOsFamily,
  /** OS name, e.g. 'Debian GNU/Linux'. */
  os_name: z.string().max(200),
  /** OS version, e.g. '12'. */
  os_version: z.string().max(100),
  /** CPU architecture, e.g. 'x64', 'arm64'. */
  arch: z.string().max(50),
  /** Version of the agent enrolling. */
  agent_version: z.string().max(50),
});
export type EnrollBody = z.infer<typeof ZEnrollBody>;

/** 201 answer of the enrolment. */
export const ZEnrollResult = z.object({
  /** Numeric device id. */
  device_id: z.number().int(),
  /** Public device identifier (uuid). */
  device_uuid: z.string(),
  /** The device token (`pwd_` + 40 random characters); the server keeps only its SHA-256 hash. */
  token: z.string(),
  /** How often the agent should check in, in seconds. */
  checkin_interval_s: z.number().int(),
});
export type EnrollResult = z.infer<typeof ZEnrollResult>;

/** The live status a device reports at each check-in. */
export const ZCheckinStatus = z.object({
  /** Seconds since boot. */
  uptime_s: z.number().int().min(0).nullable().optional(),
  /** The user logged in at the console, if any. */
  logged_in_user: z.string().max(200).nullable().optional(),
  /** Whether the device waits for a reboot. */
  needs_reboot: z.boolean().optional(),
  /** Public IP addresses. */
  ip_addrs: z.array(z.string().max(64)).max(64).optional(),
  /** Private IP addresses. */
  ip_addrs_private: z.array(z.string().max(64)).max(64).optional(),
});
export type CheckinStatus = z.infer<typeof ZCheckinStatus>;

/** `POST /api/agent/v1/checkin` (`Authorization: Bearer <device token>`). */
export const ZCheckinBody = z.object({
  /** The device's live status. */
  status: ZCheckinStatus,
  /** Hash of the agent's current inventory; null when it has none yet. */
  inventory_hash: z.string().max(128).nullable().optional(),
  /** Long-poll: seconds to wait for a command when none is queued (0 to 30). Default 0. */
  wait_s: z.number().int().min(0).max(CHECKIN_WAIT_MAX_S).default(0),
  /**
   * The agent is still running the commands it was given (an install, a script, a notice
   * waiting for the user): the check-in only says the device is there. The server hands out
   * no commands and does not wait; the ones queued meanwhile come at the next check-in.
   */
  busy: z.boolean().default(false),
});
export type CheckinBody = z.input<typeof ZCheckinBody>;

/**
 * Deferral a notice offers: the user may postpone the run by one of `periods_h`. Absent or
 * null, the notice only informs (the run proceeds after it).
 */
export const ZNoticeDeferral = z.object({
  /** Deferral options in hours (1 to 3 distinct values, 1–24 each). */
  periods_h: z.array(z.number().int().min(1).max(24)).min(1).max(3),
  /** Deferrals the user has left for this run (at least 1: with none left the server sends no deferral). */
  remaining: z.number().int().min(1).max(10),
  /** Deferrals the policy allows in all, for the notice's text ("2 of 6 left"). */
  max: z.number().int().min(1).max(10).optional(),
  /** When the notice times out unanswered, defer by the longest period instead of proceeding. */
  auto_defer: z.boolean().default(false),
});
export type NoticeDeferral = z.infer<typeof ZNoticeDeferral>;

/** A notice the agent shows the signed-in user (where the platform allows) before acting. */
export const ZCommandNotice = z.object({
  /** The text, already in the device's variant (the policy's `_mac` message on macOS), plus a reboot line. */
  message: z.string().min(1).max(500),
  /** Minutes the notice stays up before it times out (15–480). */
  timeout_min: z.number().int().min(1).max(480).default(15),
  /** The deferral offered, or null for an informative notice. */
  deferral: ZNoticeDeferral.nullable().optional(),
});
export type CommandNotice = z.infer<typeof ZCommandNotice>;

/** Reboot behaviours after a run (as a policy's `reboot_mode`). */
export const COMMAND_REBOOT_MODES = ['auto', 'when_needed', 'notify'] as const;

/** What the agent does about a reboot after a successful `install_updates` or remediation. */
export const ZCommandReboot = z.object({
  /**
   * `auto` reboots when the run changed something, `when_needed` only when the OS or an
   * installed update needs it, `notify` never reboots and tells the user a reboot is pending.
   */
  mode: z.enum(COMMAND_REBOOT_MODES),
  /**
   * The pending-reboot notice shown before the reboot (`auto`, `when_needed`, with a
   * deferral when the policy allows one) or instead of it (`notify`); null: none.
   */
  notice: ZCommandNotice.nullable().optional(),
});
export type CommandReboot = z.infer<typeof ZCommandReboot>;

/** The installer an `install_package` carries (the policy's `configuration.installer`). */
export const ZCommandInstaller = z.object({
  /** Installer id, for the download. */
  id: z.string().min(1).max(100),
  /** File name as uploaded (the downloaded file keeps it, for installers that look at their extension). */
  name: z.string().min(1).max(255),
  /** Hex SHA-256 the download must match. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Size in bytes the download must match. */
  size_bytes: z.number().int().min(1),
});
export type CommandInstaller = z.infer<typeof ZCommandInstaller>;

/** Arguments of a command (which apply depends on its type). */
export const ZAgentCommandArgs = z.object({
  /** Updates to install (`install_updates`): package names or KB ids. */
  names: z.array(z.string().min(1).max(300)).max(1000).optional(),
  /** Package to install or remove. */
  package: z.string().min(1).max(300).optional(),
  /** Package version to install. */
  version: z.string().max(100).optional(),
  /** Script language (`run_script`). */
  language: z.enum(['bash', 'powershell']).optional(),
  /** Script text (`run_script`). */
  script: z
    .string()
    .max(256 * 1024)
    .optional(),
  /**
   * What a `run_script` is for. A worklet's evaluation is a read-only check (exit 0 compliant),
   * so the agent runs it even without --allow-changes; anything else that changes the machine
   * needs that flag.
   */
  purpose: z.enum(['evaluate', 'remediate', 'script']).optional(),
  /** Delay before a reboot, in seconds. */
  delay_s: z.number().int().min(0).max(86_400).optional(),
  /**
   * Notice shown before an `install_updates` or a remediation `run_script` (the policy's
   * `notify_user` and `notify_reboot_user`); the user may defer the run when it offers a deferral.
   */
  notice: ZCommandNotice.nullable().optional(),
  /** Reboot behaviour after a successful `install_updates` or remediation. */
  reboot: ZCommandReboot.nullable().optional(),
  /**
   * An uploaded installer (`install_package` of a required-software policy that has one): the
   * agent downloads it from `/api/agent/v1/installers/{id}`, checks the size and SHA-256, then
   * runs `install_command` instead of the package manager.
   */
  installer: ZCommandInstaller.optional(),
  /** The policy's install command (bash, or PowerShell on Windows); `$INSTALLER` / `$env:INSTALLER` is the file's path. */
  install_command: z
    .string()
    .max(256 * 1024)
    .optional(),
  /** A remote-control or shell session to join (`remote_session`, decision 0016). */
  remote: ZRemoteSessionCommand.optional(),
});
export type AgentCommandArgs = z.infer<typeof ZAgentCommandArgs>;

/** A command handed to the agent. */
export const ZAgentCommand = z.object({
  /** Command id; the result is posted to `/commands/{id}/result`. */
  id: z.number().int(),
  /** What to do. */
  type: ZAgentCommandType,
  /** Arguments of the command. */
  args: ZAgentCommandArgs,
  /** Seconds the server waits for a result before marking it `timed_out`. */
  timeout_s: z.number().int(),
  /** When the command was queued (ISO 8601). */
  created_at: z.string(),
});
export type AgentCommand = z.infer<typeof ZAgentCommand>;

/** 200 answer of a check-in. */
export const ZCheckinResult = z.object({
  /** Commands queued for the device (now in progress). */
  commands: z.array(ZAgentCommand),
  /** True when the server's stored inventory hash differs from the agent's. */
  send_inventory: z.boolean(),
  /** How often to check in, in seconds. */
  checkin_interval_s: z.number().int(),
  /** The server's clock (ISO 8601). */
  server_time: z.string(),
});
export type CheckinResult = z.infer<typeof ZCheckinResult>;

/** A disk of the device. */
export const ZInventoryDisk = z.object({
  /** Disk name, e.g. 'sda'. */
  name: z.string().max(200),
  /** Size in bytes. */
  size_bytes: z.number().min(0),
  /** Disk type, e.g. 'ssd', 'hdd'. */
  type: z.string().max(50).nullable().optional(),
});
export type InventoryDisk = z.infer<typeof ZInventoryDisk>;

/** A network interface of the device. */
export const ZInventoryNic = z.object({
  /** Interface name, e.g. 'eth0'. */
  name: z.string().max(200),
  /** MAC address. */
  mac: z.string().max(64).nullable().optional(),
  /** IP addresses on the interface. */
  ips: z.array(z.string().max(64)).max(64),
});
export type InventoryNic = z.infer<typeof ZInventoryNic>;

/** The system part of an inventory (stored as the device's `detail`). */
export const ZInventorySystem = z.object({
  /** Host name. */
  hostname: z.string().max(255),
  /** Fully qualified domain name. */
  fqdn: z.string().max(255).nullable().optional(),
  /** OS family. */
  os_family: ZOsFamily,
  /** OS name. */
  os_name: z.string().max(200),
  /** OS version. */
  os_version: z.string().max(100),
  /** CPU architecture. */
  arch: z.string().max(50),
  /** Kernel version. */
  kernel: z.string().max(200).nullable().optional(),
  /** CPU model. */
  cpu: z.string().max(300).nullable().optional(),
  /** Number of CPU cores. */
  cpu_cores: z.number().int().min(0).nullable().optional(),
  /** Memory in bytes. */
  ram_bytes: z.number().min(0).nullable().optional(),
  /** Disks. */
  disks: z.array(ZInventoryDisk).max(256).default([]),
  /** Network interfaces. */
  nics: z.array(ZInventoryNic).max(256).default([]),
  /** Hardware model. */
  model: z.string().max(300).nullable().optional(),
  /** Serial number. */
  serial: z.string().max(300).nullable().optional(),
  /** Hardware vendor. */
  vendor: z.string().max(300).nullable().optional(),
  /** IANA timezone of the device. */
  timezone: z.string().max(100).nullable().optional(),
  /** Agent version. */
  agent_version: z.string().max(50),
  /** Seconds since boot. */
  uptime_s: z.number().int().min(0).nullable().optional(),
  /** The user logged in at the console, if any. */
  logged_in_user: z.string().max(200).nullable().optional(),
});
export type InventorySystem = z.infer<typeof ZInventorySystem>;

/** One installed package. */
export const ZInventorySoftware = z.object({
  /** Package name. */
  name: z.string().min(1).max(300),
  /** Installed version. */
  version: z.string().max(200),
  /** Where it comes from, e.g. 'dpkg', 'rpm', 'msi', 'app'. */
  source: z.string().max(50).nullable().optional(),
  /** Package architecture. */
  arch: z.string().max(50).nullable().optional(),
});
export type InventorySoftware = z.infer<typeof ZInventorySoftware>;

/** One available patch (update). */
export const ZInventoryPatch = z.object({
  /** Package or update name. */
  name: z.string().min(1).max(300),
  /** Installed version; null for a new update (e.g. a Windows KB). */
  current_version: z.string().max(200).nullable().optional(),
  /** Version the patch brings. */
  version: z.string().max(200),
  /** Severity. */
  severity: ZPatchSeverity,
  /** CVE ids fixed. */
  cves: z.array(z.string().max(50)).max(1000).default([]),
  /** KB id (Windows), when any. */
  kb: z.string().max(50).nullable().optional(),
  /** Where it comes from, e.g. 'apt', 'dnf', 'wua', 'softwareupdate'. */
  source: z.string().max(50).nullable().optional(),
  /** Whether installing it needs a reboot. */
  reboot_required: z.boolean().default(false),
  /** When it was published (ISO 8601), if known. */
  published_at: z.string().max(50).nullable().optional(),
});
export type InventoryPatch = z.infer<typeof ZInventoryPatch>;

/** `PUT /api/agent/v1/inventory`: the whole inventory, replacing the previous one. */
export const ZInventoryBody = z.object({
  /** Hash of this inventory (the agent computes it; compared at check-in). */
  hash: z.string().min(1).max(128),
  /** The system. */
  system: ZInventorySystem,
  /** Installed software (at most 20,000 rows). */
  software: z.array(ZInventorySoftware).max(INVENTORY_SOFTWARE_MAX),
  /** Available patches (at most 5,000). */
  patches: z.array(ZInventoryPatch).max(INVENTORY_PATCHES_MAX),
});
export type InventoryBody = z.input<typeof ZInventoryBody>;
/** The inventory as the server holds it after validation (defaults applied). */
export type ParsedInventory = z.output<typeof ZInventoryBody>;

/** How a notice went: shown or not (and why), and what the user chose. */
export const ZNoticeReport = z.object({
  /** Whether the notice reached the signed-in user. */
  shown: z.boolean(),
  /**
   * Why it was not shown (e.g. 'no signed-in user'), or, when shown, why the user could not
   * choose (e.g. zenity missing, a bubble shown instead).
   */
  reason: z.string().max(500).optional(),
  /** The user's answer, or what a timeout led to; absent when not shown. */
  choice: z.enum(['proceed', 'defer']).optional(),
  /** Hours deferred, with `choice: 'defer'`. */
  defer_h: z.number().int().min(1).max(24).optional(),
  /** The notice timed out unanswered (the choice is then the policy's auto-deferral or proceed). */
  timed_out: z.boolean().optional(),
});
export type NoticeReport = z.infer<typeof ZNoticeReport>;

/** What the agent did about a reboot after the run. */
export const ZRebootReport = z.object({
  /**
   * `rebooting`: a restart was started (after `delay_s`); `scheduled`: the user deferred it,
   * it happens in `delay_s`; `notified`: the user was told a restart is pending (no restart);
   * `none`: no restart was needed or wanted.
   */
  outcome: z.enum(['rebooting', 'scheduled', 'notified', 'none']),
  /** Seconds until the restart (`rebooting`, `scheduled`). */
  delay_s: z
    .number()
    .int()
    .min(0)
    .max(86_400 * 2)
    .optional(),
  /** The agent runs without --allow-changes: it reports what it would have done and did not restart. */
  simulated: z.boolean().optional(),
  /** Why, in words (e.g. 'an installed update needs a restart'). */
  reason: z.string().max(500).optional(),
  /** The pending-reboot notice, when one was due. */
  notice: ZNoticeReport.optional(),
});
export type RebootReport = z.infer<typeof ZRebootReport>;

/** `POST /api/agent/v1/commands/{commandId}/result`: the outcome of a command (idempotent). */
export const ZCommandResultBody = z.object({
  /** Final status. */
  status: ZCommandResultStatus,
  /** Process exit code, when there was a process. */
  exit_code: z.number().int().nullable().optional(),
  /** Last 16 KiB of stdout. */
  stdout_tail: z.string().max(COMMAND_TAIL_MAX).nullable().optional(),
  /** Last 16 KiB of stderr. */
  stderr_tail: z.string().max(COMMAND_TAIL_MAX).nullable().optional(),
  /** When the agent started it (ISO 8601). */
  started_at: z.string().max(50).nullable().optional(),
  /** When the agent finished it (ISO 8601). */
  finished_at: z.string().max(50).nullable().optional(),
  /** Optional structured result (e.g. a scan's summary). */
  data: z.unknown().optional(),
  /**
   * The notice shown before the run (when the command carried one). A deferral is reported
   * as status `canceled` with `choice: 'defer'`: nothing ran, and the server queues it again
   * after `defer_h`.
   */
  notice: ZNoticeReport.optional(),
  /** What happened about a reboot after the run (when the command carried `reboot`). */
  reboot: ZRebootReport.optional(),
  /**
   * The agent only simulated the command (it runs without `--allow-changes`): a dry run that
   * changed nothing. A simulated success never makes a device up to date with a policy.
   */
  simulated: z.boolean().optional(),
});
export type CommandResultBody = z.infer<typeof ZCommandResultBody>;

/** `{commandId}` path parameter of the result route. */
export const ZCommandIdParams = z.object({
  /** Command id. */
  commandId: z.coerce.number().int().positive(),
});
export type CommandIdParams = z.infer<typeof ZCommandIdParams>;
