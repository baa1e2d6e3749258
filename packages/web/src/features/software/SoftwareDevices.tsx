import { Anchor, List, Loader, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { deviceLabel } from '../devices/device-label';
import { useSoftwareDevices } from './software.api';

/** The devices having a package, each linking to its details. */
export function SoftwareDevices({ zoneId, name }: { zoneId: number; name: string }) {
  const devices = useSoftwareDevices(zoneId, name);
  if (devices.isPending) return <Loader size="xs" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (!devices.data || devices.data.data.length === 0) return <Text size="sm">{CONSOLE_TEXTS.software.noDevices}</Text>;
  return (
    <List size="sm" aria-label={CONSOLE_TEXTS.software.devicesOf(name)}>
      {devices.data.data.map((d) => (
        <List.Item key={d.id}>
          <Anchor component={Link} to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.id }), zoneId)}>
            {deviceLabel(d)}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}
