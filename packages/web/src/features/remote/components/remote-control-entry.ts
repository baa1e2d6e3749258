import { Menu, Tooltip, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { useShell } from '../../../app/shell-context';
import { withZone } from '../../../app/zone';
import type { Device } from '../../devices/devices.types';
import { CONSOLE_TEXTS } from '../../../texts';
import { remoteControlAction } from '../remote-access';

/** The remote-control page of a device in the current zone. */
export const remoteControlPath = (deviceId: number, zoneId: number | undefined) =>
  withZone(pathTo(PATHS.remoteControl, { deviceId }), zoneId);

/**
 * "Remote control" in a device's row menu (spec B sections 2 and 8): hidden without the
 * flag; disabled with the spec's tooltip when the permission, the plan or the device's state
 * stands in the way. A disabled item stays hoverable (aria-disabled, not disabled) so its
 * tooltip shows.
 */
export function RemoteControlMenuItem({ device }: { device: Pick<Device, 'id' | 'connected' | 'initializing'> }) {
  const { profile, zone, zoneId } = useShell();
  const action = remoteControlAction(profile, zone, device);
  if (!action.isVisible) return null;
  const label = CONSOLE_TEXTS.remote.rowAction;
  if (action.disabledReason) {
    return (
      <Tooltip label={action.disabledReason} position="left" multiline w={260} withinPortal>
        <Menu.Item
          aria-disabled="true"
          data-disabled
          closeMenuOnClick={false}
          onClick={(event) => event.preventDefault()}
        >
          {label}
          <VisuallyHidden>: {action.disabledReason}</VisuallyHidden>
        </Menu.Item>
      </Tooltip>
    );
  }
  return (
    <Menu.Item component={Link} to={remoteControlPath(device.id, zoneId)}>
      {label}
    </Menu.Item>
  );
}
