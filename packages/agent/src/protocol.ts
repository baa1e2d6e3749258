/**
 * Agent protocol payloads (docs/api/devices-agent-contract.md, "Agent protocol").
 * The wire types come from the shared zod schemas in `@patchwell/core`; the agent imports
 * them as types only (the bundle carries no zod). What the agent produces uses stricter
 * local types, checked below to be assignable to the shared ones.
 */
import type {
  AgentCommand as CoreAgentCommand,
  AgentCommandType,
  CheckinBody,
  CheckinResult,
  CheckinStatus,
  CommandResultBody,
  EnrollBody,
  EnrollResult,
  InventoryBody,
  InventoryPatch,
  InventorySoftware,
  InventorySystem,
  NoticeReport,
  OsFamily as CoreOsFamily,
  PatchSeverity,
  RebootReport,
} from '@patchwell/core/agent/agent-protocol.schema';

export type OsFamily = CoreOsFamily;
export type Severity = PatchSeverity;
export type CommandType = AgentCommandType;
export type EnrollRequest = EnrollBody;
export type EnrollResponse = EnrollResult;
export type CheckinResponse = CheckinResult;
export type AgentCommand = CoreAgentCommand;

export type DeviceStatus = {
  uptime_s: number;
  logged_in_user: string | null;
  needs_reboot: boolean;
  ip_addrs: string[];
  ip_addrs_private: string[];
};

export type CheckinRequest = {
  status: DeviceStatus;
  inventory_hash: string | null;
  /** Long-poll: 0–30 seconds. */
  wait_s: number;
  /** Still running the commands it was given: a heartbeat that takes no new ones. */
  busy?: boolean;
};

export type Disk = { name: string; size_bytes: number; type: string };
export type Nic = { name: string; mac: string; ips: string[] };

export type SystemInfo = {
  hostname: string;
  fqdn: string;
  os_family: OsFamily;
  os_name: string;
  os_version: string;
  arch: string;
  kernel: string;
  cpu: string;
  cpu_cores: number;
  ram_bytes: number;
  disks: Disk[];
  nics: Nic[];
  model: string | null;
  serial: string | null;
  vendor: string | null;
  timezone: string;
  agent_version: string;
  uptime_s: number;
  logged_in_user: string | null;
};

export type SoftwareItem = { name: string; version: string; source: string; arch: string | null };

export type Patch = {
  name: string;
  current_version: string | null;
  version: string;
  severity: Severity;
  cves: string[];
  kb: string | null;
  source: string;
  reboot_required: boolean;
  published_at: string | null;
};

export type Inventory = {
  hash: string;
  system: SystemInfo;
  software: SoftwareItem[];
  patches: Patch[];
};

export type ResultStatus = 'success' | 'error' | 'timed_out' | 'canceled';

export type CommandResult = {
  status: ResultStatus;
  exit_code: number | null;
  stdout_tail: string;
  stderr_tail: string;
  started_at: string;
  finished_at: string;
  data?: Record<string, unknown>;
  /** The notice shown before the run (a deferral is status `canceled` with `choice: 'defer'`). */
  notice?: NoticeReport;
  /** What was done about a reboot after the run. */
  reboot?: RebootReport;
  /** Only simulated (no --allow-changes): a dry run that changed nothing on the machine. */
  simulated?: boolean;
};

/** Byte limit of each output tail in a command result. */
export const TAIL_BYTES = 16 * 1024;

/** Compile-time proof that what the agent sends is what the server validates. */
type Assignable<T extends U, U> = T;
export type _ProtocolChecks = [
  Assignable<CheckinRequest, CheckinBody>,
  Assignable<DeviceStatus, CheckinStatus>,
  Assignable<SystemInfo, InventorySystem>,
  Assignable<SoftwareItem, InventorySoftware>,
  Assignable<Patch, InventoryPatch>,
  Assignable<Inventory, InventoryBody>,
  Assignable<CommandResult, CommandResultBody>,
];
