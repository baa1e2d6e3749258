import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import type { DeviceActions } from '../useDeviceActions';

const T = CONSOLE_TEXTS.devices;

export type BulkActionsProps = {
  selectedIds: readonly number[];
  can: Can;
  actions: DeviceActions;
  onDone: () => void;
};

/**
 * Actions on the selected devices (spec B section 2): assign to group, apply and remove tags,
 * scan and reboot (Endpoint.manage), remove (Endpoint.delete). Disabled with nothing selected;
 * absent when the role allows none of them.
 */
export function BulkActions({ selectedIds, can, actions, onDone }: BulkActionsProps) {
  const canManage = can('Endpoint', 'manage');
  const canDelete = can('Endpoint', 'delete');
  if (!canManage && !canDelete) return null;
  const target = { ids: selectedIds, onDone };
  return (
    <Menu position="bottom-start" shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          disabled={selectedIds.length === 0}
          rightSection={<IconChevronDown size={16} aria-hidden="true" />}
        >
          {T.bulkActions}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {canManage && (
          <>
            <Menu.Item onClick={() => actions.start('group', target)}>{T.assignGroup}</Menu.Item>
            <Menu.Item onClick={() => actions.start('tag', target)}>{T.applyTags}</Menu.Item>
            <Menu.Item onClick={() => actions.start('untag', target)}>{T.removeTags}</Menu.Item>
            <Menu.Item onClick={() => actions.start('scan', target)}>{T.scan}</Menu.Item>
            <Menu.Item onClick={() => actions.start('reboot', target)}>{T.reboot}</Menu.Item>
          </>
        )}
        {canDelete && (
          <Menu.Item color="red" onClick={() => actions.start('remove', target)}>
            {T.remove}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
