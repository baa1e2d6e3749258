import { Table } from '@mantine/core';
import type { Device } from '@patchwell/core/devices/devices.schema';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { formatOs } from '../../../ui/format-units';
import { ComplianceBadge, DeviceStatusBadge } from './DeviceBadges';

type DeviceState = Pick<
  Device,
  | 'os_name'
  | 'os_version'
  | 'group_name'
  | 'connected'
  | 'last_seen_at'
  | 'pending_patches'
  | 'compliance'
  | 'compliance_reason'
>;

/**
 * The cells a device row shows about the device's state, in the order of both device tables
 * (a zone's and the global one): OS, group, status, last seen, pending patches, compliance.
 */
export function DeviceStateCells({ device: d }: { device: DeviceState }) {
  return (
    <>
      <Table.Td>{formatOs(d.os_name, d.os_version)}</Table.Td>
      <Table.Td>{d.group_name || '—'}</Table.Td>
      <Table.Td>
        <DeviceStatusBadge isOnline={d.connected} />
      </Table.Td>
      <Table.Td>{d.last_seen_at ? formatUtc(d.last_seen_at) : CONSOLE_TEXTS.devices.never}</Table.Td>
      <Table.Td>{d.pending_patches}</Table.Td>
      <Table.Td>
        <ComplianceBadge compliance={d.compliance} reason={d.compliance_reason} />
      </Table.Td>
    </>
  );
}
