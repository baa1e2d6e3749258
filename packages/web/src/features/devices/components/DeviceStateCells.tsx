import type { Device } from '@patchwell/core/devices/devices.schema';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { formatOs } from '../../../ui/format-units';
import { BodyCell } from '../../../ui/table/BodyCells';
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
      <BodyCell>{formatOs(d.os_name, d.os_version)}</BodyCell>
      <BodyCell>{d.group_name || '—'}</BodyCell>
      <BodyCell>
        <DeviceStatusBadge isOnline={d.connected} />
      </BodyCell>
      <BodyCell>{d.last_seen_at ? formatUtc(d.last_seen_at) : CONSOLE_TEXTS.devices.never}</BodyCell>
      <BodyCell>{d.pending_patches}</BodyCell>
      <BodyCell>
        <ComplianceBadge compliance={d.compliance} reason={d.compliance_reason} />
      </BodyCell>
    </>
  );
}
