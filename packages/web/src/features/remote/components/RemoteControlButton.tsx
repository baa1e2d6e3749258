import { Button, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { useShell } from '../../../app/shell-context';
import type { Device } from '../../devices/devices.types';
import { CONSOLE_TEXTS } from '../../../texts';
import { remoteControlAction } from '../remote-access';
import { remoteControlPath } from './remote-control-entry';
import { Hint } from '../../../ui/Hint';

/** "Remote control" on a device's page: the same rules and tooltips as the row action. */
export function RemoteControlButton({ device }: { device: Pick<Device, 'id' | 'connected' | 'initializing'> }) {
  const { profile, zone, zoneId } = useShell();
  const action = remoteControlAction(profile, zone, device);
  if (!action.isVisible) return null;
  const label = CONSOLE_TEXTS.remote.openFromDetail;
  if (action.disabledReason) {
    return (
      <Hint label={action.disabledReason} multiline w={260}>
        <Button variant="default" data-disabled aria-disabled="true" onClick={(event) => event.preventDefault()}>
          {label}
          <VisuallyHidden>: {action.disabledReason}</VisuallyHidden>
        </Button>
      </Hint>
    );
  }
  return (
    <Button variant="default" component={Link} to={remoteControlPath(device.id, zoneId)}>
      {label}
    </Button>
  );
}
