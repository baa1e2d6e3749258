import { Badge, Button, Group, Stack, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { FactTable } from '../../../ui/FactTable';
import { formatUtc } from '../../../ui/format-date';
import { formatDuration, formatOs } from '../../../ui/format-units';
import { notify } from '../../../ui/notify';
import { deviceKeys, updateDevice } from '../devices.api';
import type { DeviceDetail } from '../devices.types';
import { ComplianceBadge, DeviceStatusBadge } from './DeviceBadges';

const T = CONSOLE_TEXTS.device;

export type DeviceOverviewProps = { zoneId: number; device: DeviceDetail; canManage: boolean };

/** Status, OS, agent, addresses, group, tags, and the notes (editable with Endpoint.manage). */
export function DeviceOverview({ zoneId, device, canManage }: DeviceOverviewProps) {
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState(device.notes ?? '');
  const [isSaving, setSaving] = useState(false);
  const onSaveNotes = async () => {
    setSaving(true);
    try {
      await updateDevice(zoneId, device.id, { notes });
      notify.success(T.notesSaved);
      await queryClient.invalidateQueries({ queryKey: deviceKeys.detail(zoneId, device.id) });
    } catch (error) {
      void notify.apiError(error);
    } finally {
      setSaving(false);
    }
  };
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
                <ComplianceBadge compliance={device.compliance} />
                {device.needs_reboot && (
                  <Badge color="orange" variant="light">
                    {CONSOLE_TEXTS.devices.needsReboot}
                  </Badge>
                )}
              </Group>
            ),
          },
          { label: T.hostname, value: device.hostname },
          { label: T.os, value: formatOs(device.os_name, device.os_version) },
          { label: T.agent, value: device.agent_version },
          { label: T.privateIps, value: device.ip_addrs_private.join(', ') },
          { label: T.publicIps, value: device.ip_addrs.join(', ') },
          { label: T.group, value: device.group_name },
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
        <Stack gap="xs">
          <Textarea label={T.notes} rows={4} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button onClick={() => void onSaveNotes()} loading={isSaving} disabled={notes === (device.notes ?? '')}>
              {T.saveNotes}
            </Button>
          </Group>
        </Stack>
      ) : (
        <FactTable label={T.notes} facts={[{ label: T.notes, value: device.notes }]} />
      )}
    </Stack>
  );
}
