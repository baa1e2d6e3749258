import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import { confirmAction } from '../../../ui/confirm';
import { notify } from '../../../ui/notify';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import { batchDevices, deviceKeys } from '../devices.api';
import type { BatchBody } from '../devices.types';
import { AssignGroupDialog } from './AssignGroupDialog';
import { TagsDialog } from './TagsDialog';

export type BulkActionsProps = {
  zoneId: number;
  selectedIds: readonly number[];
  groups: readonly ServerGroup[];
  can: Can;
  onDone: () => void;
};

/**
 * Actions on the selected devices (spec B section 2): assign to group, apply and remove tags,
 * scan and reboot (Endpoint.manage), remove (Endpoint.delete). Disabled with nothing selected;
 * absent when the role allows none of them.
 */
export function BulkActions({ zoneId, selectedIds, groups, can, onDone }: BulkActionsProps) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'group' | 'tag' | 'untag' | null>(null);
  const canManage = can('Endpoint', 'manage');
  const canDelete = can('Endpoint', 'delete');
  if (!canManage && !canDelete) return null;
  const n = selectedIds.length;

  const run = async (body: Omit<BatchBody, 'ids'>) => {
    try {
      const result = await batchDevices(zoneId, { ...body, ids: [...selectedIds] });
      notify.success(CONSOLE_TEXTS.devices.batchDone(result?.affected ?? n));
      onDone();
      await queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    } catch (error) {
      void notify.apiError(error);
      throw error;
    }
  };
  const runQuietly = (body: Omit<BatchBody, 'ids'>) => void run(body).catch(() => undefined);

  const confirmRun = (action: 'scan' | 'reboot' | 'remove') => {
    const copy = {
      scan: {
        title: CONSOLE_TEXTS.devices.scanTitle,
        message: CONSOLE_TEXTS.devices.scanBody(n),
        label: CONSOLE_TEXTS.devices.scan,
      },
      reboot: {
        title: CONSOLE_TEXTS.devices.rebootTitle,
        message: CONSOLE_TEXTS.devices.rebootBody(n),
        label: CONSOLE_TEXTS.devices.reboot,
      },
      remove: {
        title: CONSOLE_TEXTS.devices.removeTitle,
        message: CONSOLE_TEXTS.devices.removeBody(n),
        label: CONSOLE_TEXTS.devices.remove,
      },
    }[action];
    confirmAction({
      title: copy.title,
      message: copy.message,
      confirmLabel: copy.label,
      isDanger: action !== 'scan',
      onConfirm: () => runQuietly({ action }),
    });
  };

  return (
    <>
      <Menu position="bottom-start" shadow="md">
        <Menu.Target>
          <Button variant="default" disabled={n === 0} rightSection={<IconChevronDown size={16} aria-hidden="true" />}>
            {CONSOLE_TEXTS.devices.bulkActions}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {canManage && (
            <>
              <Menu.Item onClick={() => setDialog('group')}>{CONSOLE_TEXTS.devices.assignGroup}</Menu.Item>
              <Menu.Item onClick={() => setDialog('tag')}>{CONSOLE_TEXTS.devices.applyTags}</Menu.Item>
              <Menu.Item onClick={() => setDialog('untag')}>{CONSOLE_TEXTS.devices.removeTags}</Menu.Item>
              <Menu.Item onClick={() => confirmRun('scan')}>{CONSOLE_TEXTS.devices.scan}</Menu.Item>
              <Menu.Item onClick={() => confirmRun('reboot')}>{CONSOLE_TEXTS.devices.reboot}</Menu.Item>
            </>
          )}
          {canDelete && (
            <Menu.Item color="red" onClick={() => confirmRun('remove')}>
              {CONSOLE_TEXTS.devices.remove}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <AssignGroupDialog
        opened={dialog === 'group'}
        groups={groups}
        onClose={() => setDialog(null)}
        onSubmit={(groupId) => run({ action: 'group', server_group_id: groupId })}
      />
      <TagsDialog
        opened={dialog === 'tag' || dialog === 'untag'}
        title={dialog === 'untag' ? CONSOLE_TEXTS.devices.removeTags : CONSOLE_TEXTS.devices.applyTags}
        onClose={() => setDialog(null)}
        onSubmit={(tags) => run({ action: dialog === 'untag' ? 'untag' : 'tag', tags })}
      />
    </>
  );
}
