/**
 * Console payload types of the devices API, from core's schemas
 * (docs/api/devices-agent-contract.md). Re-exported here so the feature reads one place.
 */
export type { OsFamily, PatchSeverity as Severity, InventorySystem } from '@patchwell/core/agent/agent-protocol.schema';
export type {
  AgentInfo,
  CommandStatus,
  Compliance,
  Device,
  DeviceBatchBody as BatchBody,
  DeviceCommand,
  DeviceDetail,
  DevicePackage,
  QueueCommandType,
  UpdateDeviceBody,
} from '@patchwell/core/devices/devices.schema';
import type { DeviceDetail } from '@patchwell/core/devices/devices.schema';

/** The inventory's system part as the details carry it (every field optional). */
export type DeviceSystem = NonNullable<DeviceDetail['detail']>;
