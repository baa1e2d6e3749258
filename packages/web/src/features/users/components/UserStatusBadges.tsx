import type { UserStatus } from '@patchwell/core/users/users.schema';
import { Badge, Group } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../../../texts';

const STATUS_COLORS: Record<UserStatus, string> = { 'pending-invite': 'yellow', active: 'green', disabled: 'gray' };

/** A user's status (pending-invite, active, disabled) and, when locked, a Locked badge. */
export function UserStatusBadges({ status, locked }: { status: UserStatus; locked: boolean }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={STATUS_COLORS[status]} variant="light">
        {CONSOLE_TEXTS.users.status[status]}
      </Badge>
      {locked && (
        <Badge color="red" variant="light" leftSection={<IconLock size={12} aria-hidden="true" />}>
          {CONSOLE_TEXTS.users.locked}
        </Badge>
      )}
    </Group>
  );
}
