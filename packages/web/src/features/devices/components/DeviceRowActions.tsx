import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import { RemoteControlMenuItem } from '../../remote/components/RemoteControlMenuItem';
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
  const name = deviceLabel(device);
  const target = { ids: [device.id], name };
  const canManage = can('Endpoint', 'manage');
  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={T.rowActions(name)}>
          <IconDots size={16} aria-hidden="true" />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {canManage && (
          <>
            <Menu.Item onClick={() => actions.start('group', target)}>{T.assignGroup}</Menu.Item>
            <Menu.Item onClick={() => actions.start('tag', target)}>{T.applyTags}</Menu.Item>
            <Menu.Item onClick={() => actions.start('untag', target)}>{T.removeTags}</Menu.Item>
            <Menu.Item onClick={() => actions.start('scan', target)}>{T.scan}</Menu.Item>
          </>
        )}
        <RemoteControlMenuItem device={device} />
        {/* The server's export, narrowed to this device: the same columns and formula guard as the list's. */}
        <Menu.Item component="a" href={devicesExportHref(zoneId, { ids: [device.id] })} download>
          {T.exportCsv}
        </Menu.Item>
        {canManage && <Menu.Item onClick={() => actions.start('reboot', target)}>{T.reboot}</Menu.Item>}
        {can('Endpoint', 'delete') && (
          <Menu.Item color="red" onClick={() => actions.start('remove', target)}>
            {T.remove}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
