import { useQueryClient } from '@tanstack/react-query';
import { lazy, useState, type ReactNode } from 'react';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { MountWhenOpened } from '../../ui/MountWhenOpened';
import { notify } from '../../ui/notify';
import { batchDevices, deviceKeys } from './devices.api';
import type { BatchBody } from './devices.types';

const T = CONSOLE_TEXTS.devices;

/** The device actions that go through `POST /api/servers/batch` (spec B section 2). */
export type DeviceBatchAction = 'group' | 'tag' | 'untag' | 'scan' | 'reboot' | 'remove';

export type DeviceActionTarget = {
  ids: readonly number[];
  /** The device's name when the target is one row: the confirmations then name it. */
  name?: string;
  /** Runs after a success (the bulk bar clears its selection). */
  onDone?: () => void;
};

export type DeviceActions = {
  /** Starts an action: opens its dialog or its confirmation, then calls the batch API. */
  start: (action: DeviceBatchAction, target: DeviceActionTarget) => void;
  /** The group and tags dialogs; render once next to the controls that call `start`. */
  dialogs: ReactNode;
};

// On demand: not part of the list's first download.
const AssignGroupDialog = lazy(() =>
  import('./components/AssignGroupDialog').then((m) => ({ default: m.AssignGroupDialog })),
);
const TagsDialog = lazy(() => import('./components/TagsDialog').then((m) => ({ default: m.TagsDialog })));

type Dialog = { kind: 'group' | 'tag' | 'untag'; target: DeviceActionTarget };

function confirmCopy(action: 'scan' | 'reboot' | 'remove', target: DeviceActionTarget) {
  const n = target.ids.length;
  const one = target.name;
  switch (action) {
    case 'scan':
      return { title: T.scanTitle, message: T.scanBody(n), label: T.scan };
    case 'reboot':
      return {
        title: one ? CONSOLE_TEXTS.device.rebootTitle : T.rebootTitle,
        message: one ? CONSOLE_TEXTS.device.rebootBody(one) : T.rebootBody(n),
        label: T.reboot,
      };
    case 'remove':
      return {
        title: one ? CONSOLE_TEXTS.device.removeTitle : T.removeTitle,
        message: one ? CONSOLE_TEXTS.device.removeBody(one) : T.removeBody(n),
        label: T.remove,
      };
  }
}

/**
 * The bulk actions and the row menu share these calls and dialogs: assign to group, apply
 * and remove tags, scan, reboot and remove, each for a list of device ids.
 */
export function useDeviceActions(zoneId: number, groups: readonly ServerGroup[]): DeviceActions {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const run = async ({ ids, onDone }: DeviceActionTarget, body: Omit<BatchBody, 'ids'>) => {
    try {
      const result = await batchDevices(zoneId, { ...body, ids: [...ids] });
      notify.success(T.batchDone(result?.affected ?? ids.length));
      onDone?.();
      await queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    } catch (error) {
      void notify.apiError(error);
      // The dialogs stay open on a failure, so they need to see it.
      throw error;
    }
  };

  const start = (action: DeviceBatchAction, target: DeviceActionTarget) => {
    if (action === 'group' || action === 'tag' || action === 'untag') {
      setDialog({ kind: action, target });
      return;
    }
    const copy = confirmCopy(action, target);
    confirmAction({
      title: copy.title,
      message: copy.message,
      confirmLabel: copy.label,
      isDanger: action !== 'scan',
      onConfirm: () => void run(target, { action }).catch(() => undefined),
    });
  };

  const target: DeviceActionTarget = dialog?.target ?? { ids: [] };
  const dialogs = (
    <>
      <MountWhenOpened opened={dialog?.kind === 'group'}>
        <AssignGroupDialog
          opened={dialog?.kind === 'group'}
          groups={groups}
          onClose={() => setDialog(null)}
          onSubmit={(groupId) => run(target, { action: 'group', server_group_id: groupId })}
        />
      </MountWhenOpened>
      <MountWhenOpened opened={dialog?.kind === 'tag' || dialog?.kind === 'untag'}>
        <TagsDialog
          opened={dialog?.kind === 'tag' || dialog?.kind === 'untag'}
          title={dialog?.kind === 'untag' ? T.removeTags : T.applyTags}
          onClose={() => setDialog(null)}
          onSubmit={(tags) => run(target, { action: dialog?.kind === 'untag' ? 'untag' : 'tag', tags })}
        />
      </MountWhenOpened>
    </>
  );
  return { start, dialogs };
}
