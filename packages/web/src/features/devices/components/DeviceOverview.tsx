import { Badge, Group, Stack } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { FactTable } from '../../../ui/FactTable';
import { formatUtc } from '../../../ui/format-date';
import { formatDuration, formatOs } from '../../../ui/format-units';
import { useGroups } from '../../groups/groups.api';
import { MAINTENANCE_TEXTS } from '../../maintenance/maintenance.texts';
import { deviceFormValues } from '../device-form';
import type { DeviceDetail } from '../devices.types';
import { ComplianceBadge, DeviceStatusBadge } from './DeviceBadges';
import { DeviceEditForm } from './DeviceEditForm';

const T = CONSOLE_TEXTS.device;

export type DeviceOverviewProps = { zoneId: number; device: DeviceDetail; canManage: boolean };

function EditableDetails({ zoneId, device }: { zoneId: number; device: DeviceDetail }) {
  const groups = useGroups(zoneId);
  // Keyed on the saved values: a save (or another user's, seen on refresh) resets the form.
  return (
    <DeviceEditForm
      key={JSON.stringify(deviceFormValues(device))}
      zoneId={zoneId}
      device={device}
      groups={groups.data ?? []}
    />
  );
}

/**
 * Status, OS, agent, addresses, group, tags and notes; with Endpoint.manage, a form for the
 * custom name, group, tags and notes.
 */
export function DeviceOverview({ zoneId, device, canManage }: DeviceOverviewProps) {
  const system = device.detail;
  return (
    <Stack gap="md">
      <FactTable
        label={T.overview}
        facts={[
          {
            label: T.status,
            value: (
              <Group gap="xs">
                <DeviceStatusBadge isOnline={device.connected} />
                <ComplianceBadge compliance={device.compliance} reason={device.compliance_reason} />
                {device.needs_reboot && (
                  <Badge color="orange" variant="light">
                    {CONSOLE_TEXTS.devices.needsReboot}
                  </Badge>
                )}
              </Group>
            ),
          },
          { label: T.complianceReason, value: device.compliance_reason || null },
          { label: T.hostname, value: device.hostname },
          { label: T.os, value: formatOs(device.os_name, device.os_version) },
          { label: T.agent, value: device.agent_version },
          { label: T.privateIps, value: device.ip_addrs_private.join(', ') },
          { label: T.publicIps, value: device.ip_addrs.join(', ') },
          { label: T.group, value: device.group_name },
          {
            label: MAINTENANCE_TEXTS.deviceNext,
            value: device.next_maintenance_window
              ? `${formatUtc(device.next_maintenance_window.starts_at)} – ${formatUtc(device.next_maintenance_window.ends_at)}`
              : MAINTENANCE_TEXTS.deviceNone,
          },
          {
            label: T.tags,
            value: device.tags.length ? (
              <Group gap={4}>
                {device.tags.map((t) => (
                  <Badge key={t} variant="outline" color="gray">
                    {t}
                  </Badge>
                ))}
              </Group>
            ) : null,
          },
          { label: T.lastSeen, value: device.last_seen_at ? formatUtc(device.last_seen_at) : null },
          { label: T.lastInventory, value: device.last_inventory_at ? formatUtc(device.last_inventory_at) : null },
          { label: T.packages, value: String(device.package_count) },
          { label: CONSOLE_TEXTS.devices.pendingPatches, value: String(device.pending_patches) },
          { label: T.uptime, value: system?.uptime_s != null ? formatDuration(system.uptime_s) : null },
          { label: T.loggedInUser, value: system?.logged_in_user },
          { label: T.timezone, value: system?.timezone },
        ]}
      />
      {canManage ? (
        <EditableDetails zoneId={zoneId} device={device} />
      ) : (
        <FactTable label={T.notes} facts={[{ label: T.notes, value: device.notes }]} />
      )}
    </Stack>
  );
}
