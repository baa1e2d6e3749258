import { Alert, Group, List, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../../../texts';
import { isCommandOpen } from '../devices.api';
import type { DeviceCommand } from '../devices.types';
import { CommandStatusBadge } from './DeviceBadges';

const T = CONSOLE_TEXTS.device;

/**
 * The device's open commands, on every tab, while the details refresh every 5 s (live
 * status): each disappears from here as its result arrives and stays in the history.
 */
export function DeviceLiveStatus({ commands }: { commands: readonly DeviceCommand[] }) {
  const open = commands.filter(isCommandOpen);
  if (open.length === 0) return null;
  return (
    <Alert color="blue" icon={<IconRefresh size={16} aria-hidden="true" />} role="status" title={T.live}>
      <List size="sm" spacing={4} listStyleType="none">
        {open.map((c) => (
          <List.Item key={c.id}>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm">
                {CONSOLE_TEXTS.commandType[c.type] ?? c.type}
                {c.args.names?.length ? `: ${c.args.names.join(', ')}` : ''}
              </Text>
              <CommandStatusBadge status={c.status} />
            </Group>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
