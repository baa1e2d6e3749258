import { ActionIcon } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { Can } from '../../../app/access';
import { useShell } from '../../../app/shell-context';
import { CONSOLE_TEXTS } from '../../../texts';
import { ActionMenu } from '../../../ui/menu/ActionMenu';
import { remoteControlEntry } from '../../remote/components/remote-control-entry';
import { deviceLabel } from '../device-label';
import { devicesExportHref } from '../devices.api';
import type { Device } from '../devices.types';
import type { DeviceActions } from '../useDeviceActions';

const T = CONSOLE_TEXTS.devices;

export type DeviceRowActionsProps = {
  zoneId: number;
  device: Device;
  can: Can;
  actions: DeviceActions;
};

/**
 * One row's menu (spec B section 2): assign to group, apply and remove tags, scan and reboot
 * (Endpoint.manage), remote control (with its flag; disabled with the spec's tooltip when the
 * permission, the plan or the device stands in the way), export (anyone who sees the row),
 * remove (Endpoint.delete).
 */
export function DeviceRowActions({ zoneId, device, can, actions }: DeviceRowActionsProps) {
  const { profile, zone } = useShell();
  const name = deviceLabel(device);
  const target = { ids: [device.id], name };
  const canManage = can('Endpoint', 'manage');
  return (
    <ActionMenu
      target={
        <ActionIcon variant="subtle" color="gray" aria-label={T.rowActions(name)}>
          <IconDots size={16} aria-hidden="true" />
        </ActionIcon>
      }
      entries={() => [
        canManage && { label: T.assignGroup, onClick: () => actions.start('group', target) },
        canManage && { label: T.applyTags, onClick: () => actions.start('tag', target) },
        canManage && { label: T.removeTags, onClick: () => actions.start('untag', target) },
        canManage && { label: T.scan, onClick: () => actions.start('scan', target) },
        remoteControlEntry(profile, zone, zoneId, device),
        // The server's export, narrowed to this device: the same columns and formula guard as the list's.
        { label: T.exportCsv, href: devicesExportHref(zoneId, { ids: [device.id] }), download: true },
        canManage && { label: T.reboot, onClick: () => actions.start('reboot', target) },
        can('Endpoint', 'delete') && { label: T.remove, color: 'red', onClick: () => actions.start('remove', target) },
      ]}
    />
  );
}
