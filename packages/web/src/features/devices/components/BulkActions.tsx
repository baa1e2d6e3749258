import { Button } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import { ActionMenu } from '../../../ui/menu/ActionMenu';
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
    <ActionMenu
      position="bottom-start"
      target={
        <Button
          variant="default"
          disabled={selectedIds.length === 0}
          rightSection={<IconChevronDown size={16} aria-hidden="true" />}
        >
          {T.bulkActions}
        </Button>
      }
      entries={() => [
        canManage && { label: T.assignGroup, onClick: () => actions.start('group', target) },
        canManage && { label: T.applyTags, onClick: () => actions.start('tag', target) },
        canManage && { label: T.removeTags, onClick: () => actions.start('untag', target) },
        canManage && { label: T.scan, onClick: () => actions.start('scan', target) },
        canManage && { label: T.reboot, onClick: () => actions.start('reboot', target) },
        canDelete && { label: T.remove, color: 'red', onClick: () => actions.start('remove', target) },
      ]}
    />
  );
}
