import type { DataExtractKind } from '@patchwell/core/reports/extracts.schema';
import type { InventoryRow, SoftwareRow } from './extract-sources.store';
import type { PatchHistoryRow } from './overview.store';
import { toPatchHistoryEntry } from './overview.service';

/**
 * Each data extract's CSV columns and how one source row becomes its cells (before the
 * formula guard). Times are ISO 8601 in UTC.
 */

const isoOrEmpty = (v: string | Date | null) => (v === null ? '' : new Date(v).toISOString());

export const EXTRACT_HEADERS: Record<DataExtractKind, string[]> = {
  patch_history: [
    'Finished',
    'Device ID',
    'Device',
    'OS family',
    'Command',
    'Patches',
    'Status',
    'Simulated',
    'Exit code',
    'Policy ID',
    'Policy',
    'Command ID',
  ],
  device_inventory: [
    'ID',
    'UUID',
    'Name',
    'Hostname',
    'OS family',
    'OS',
    'OS version',
    'Architecture',
    'Agent version',
    'Group',
    'Tags',
    'IP addresses',
    'Private IP addresses',
    'Last seen',
    'Needs reboot',
    'Pending patches',
    'Compliance',
    'Compliance reason',
    'Enrolled',
  ],
  software: ['Device ID', 'Device', 'Hostname', 'OS family', 'Software', 'Version', 'Source', 'Architecture'],
  activity: ['Time', 'Event ID', 'User', 'Via', 'Action', 'Object type', 'Object ID', 'Details'],
};

export function patchHistoryCells(r: PatchHistoryRow): unknown[] {
  const e = toPatchHistoryEntry(r);
  return [
    e.finished_at,
    e.device_id,
    e.device_name,
    e.os_family,
    e.type,
    e.patches,
    e.status,
    e.simulated,
    e.exit_code,
    e.policy_id,
    e.policy_name,
    e.command_id,
  ];
}

export function inventoryCells(r: InventoryRow): unknown[] {
  return [
    r.id,
    r.uuid,
    r.name,
    r.hostname,
    r.osFamily,
    r.osName,
    r.osVersion,
    r.arch,
    r.agentVersion,
    r.groupName,
    r.tags,
    r.ipAddrs,
    r.ipAddrsPrivate,
    isoOrEmpty(r.lastSeenAt),
    r.needsReboot,
    r.pendingPatches,
    r.compliance,
    r.complianceReason,
    isoOrEmpty(r.createdAt),
  ];
}

export function softwareCells(r: SoftwareRow): unknown[] {
  return [r.deviceId, r.deviceName, r.hostname, r.osFamily, r.name, r.version, r.source, r.arch];
}
