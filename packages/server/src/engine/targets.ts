import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { DeviceFilter } from '@patchwell/core/policies/device-filters.schema';
import { deviceFiltersMatch, isTargeted, type TargetableDevice } from '@patchwell/core/policies/device-targeting';
import { needsRequiredSoftware, selectPatches } from '@patchwell/core/policies/patch-selection';
import {
  scriptLanguageOf,
  type PatchConfiguration,
  type RequiredSoftwareConfiguration,
  type ScriptLanguage,
} from '@patchwell/core/policies/policy-configuration.schema';
import type { CandidateDevice, PolicyRow, StoredPatch } from './engine.store';

/**
 * The engine's reading of a stored policy: which devices it targets and what it selects,
 * through core's pure rules (device-targeting.ts, patch-selection.ts). A configuration was
 * validated by core's schema when saved, so it is read here with those types.
 */

type CommonConfig = { device_filters_enabled?: boolean; device_filters?: DeviceFilter[]; os_family?: string };

function osFamilyOf(value: unknown): OsFamily | null {
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  return v === 'linux' || v === 'mac' || v === 'windows' ? v : null;
}

function targetable(device: CandidateDevice): TargetableDevice {
  return {
    server_group_id: device.groupId,
    tags: device.tags,
    hostname: device.hostname,
    ip_addrs: device.ipAddrs,
    ip_addrs_private: device.ipAddrsPrivate,
    os_family: device.osFamily as OsFamily,
    os_version: device.osVersion,
  };
}

/** Whether the device passes the policy's device filters (all of them), when enabled. */
export function matchesFilters(config: CommonConfig, device: CandidateDevice): boolean {
  return deviceFiltersMatch({ server_groups: [], configuration: config }, targetable(device));
}

/**
 * Whether the policy targets the device: in one of its groups and passing its device
 * filters (core's isTargeted), and, for worklets and required software, of its OS family.
 */
export function targetsDevice(policy: PolicyRow, device: CandidateDevice): boolean {
  const config = policy.configuration as CommonConfig;
  if (policy.type !== 'patch') {
    const family = osFamilyOf(config.os_family);
    if (family && family !== device.osFamily) return false;
  }
  return isTargeted({ server_groups: policy.serverGroups, configuration: config }, targetable(device));
}

/** The device's patches the policy installs (manual approval: the approved ones, by approval key). */
export function selectPatchesFor(
  policy: PolicyRow,
  patches: StoredPatch[],
  device: CandidateDevice,
  now: Date,
  approved?: ReadonlySet<string>,
): StoredPatch[] {
  return selectPatches(policy.configuration as PatchConfiguration, patches, {
    osFamily: device.osFamily as OsFamily,
    approved,
    now,
  });
}

/** The package a required-software policy installs, or null when its configuration names none. */
export function requiredSoftwareOf(policy: PolicyRow): RequiredSoftwareConfiguration | null {
  const config = policy.configuration as Partial<RequiredSoftwareConfiguration>;
  if (!config.package_name || !config.package_version) return null;
  return config as RequiredSoftwareConfiguration;
}

export function needsSoftware(config: RequiredSoftwareConfiguration, installed: { name: string; version: string }[]) {
  return needsRequiredSoftware(config, installed);
}

/** A worklet's code for a device: the language its OS runs, the evaluation (if any) and the remediation. */
export function customPolicyScripts(
  policy: PolicyRow,
  device: Pick<CandidateDevice, 'osFamily'>,
): { language: ScriptLanguage; evaluation: string | null; remediation: string | null } {
  const config = policy.configuration as { evaluation_code?: string | null; remediation_code?: string | null };
  const evaluation = config.evaluation_code?.trim() ? config.evaluation_code : null;
  const remediation = config.remediation_code?.trim() ? config.remediation_code : null;
  return { language: scriptLanguageOf(device.osFamily as OsFamily), evaluation, remediation };
}
