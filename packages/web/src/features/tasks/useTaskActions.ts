import type { Task } from '@patchwell/core/remediation/tasks.schema';
import { TEXTS } from '@patchwell/core/texts';
import { useQueryClient } from '@tanstack/react-query';
import type { Can } from '../../app/access';
import { confirmAction } from '../../ui/confirm';
import { notify } from '../../ui/notify';
import { actOnTask, batchKeys, deleteTasks, executeTasks, taskKeys } from './tasks.api';
import { TASK_TEXTS as T } from './tasks.texts';

type TaskRef = Pick<Task, 'id' | 'title' | 'status' | 'kind' | 'worklet_id' | 'counts'>;

export type TaskActions = {
  /** Pending tasks can be executed (the rights are checked on click, with the spec's message). */
  canExecute: (t: TaskRef) => boolean;
  /** Pending and running tasks can be canceled by Task.modify. */
  canCancel: (t: TaskRef) => boolean;
  canDelete: boolean;
  execute: (t: TaskRef) => void;
  /** Every pending task of an accepted batch, in one request. */
  executeBatch: (batchId: number, pending: number) => void;
  cancel: (t: TaskRef) => void;
  remove: (ids: number[], onDone?: () => void) => void;
};

/**
 * Execute (admin or patch admin: Task.execute; a worklet task needs a valid worklet id),
 * cancel and delete (Task.modify), each confirmed first; lists and details refresh after.
 */
export function useTaskActions(zoneId: number, can: Can): TaskActions {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: taskKeys.all }),
      queryClient.invalidateQueries({ queryKey: batchKeys.all }),
    ]);

  const execute = (t: TaskRef) => {
    // Spec B section 6: the message, not a hidden button, tells a user without the rights.
    if (!can('Task', 'execute')) {
      notify.error(TEXTS.remediationTasks.executeForbidden);
      return;
    }
    if (t.kind === 'patch-with-worklet' && !t.worklet_id) {
      notify.error(TEXTS.remediationTasks.workletInvalid);
      return;
    }
    confirmAction({
      title: T.executeTitle,
      message: T.executeBody(t.title, t.counts.devices),
      confirmLabel: T.execute,
      onConfirm: () =>
        void actOnTask(zoneId, t.id, { action: 'execute' }).then(
          () => {
            notify.success(T.executed(t.id));
            return refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });
  };

  const executeBatch = (batchId: number, pending: number) => {
    if (!can('Task', 'execute')) {
      notify.error(TEXTS.remediationTasks.executeForbidden);
      return;
    }
    confirmAction({
      title: T.executeAllTitle,
      message: T.executeAllBody(pending),
      confirmLabel: T.execute,
      onConfirm: () =>
        void executeTasks(zoneId, { batch_id: batchId }).then(
          (result) => {
            notify.success(T.executedAll(result.task_ids.length));
            return refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });
  };

  const cancel = (t: TaskRef) =>
    confirmAction({
      title: T.cancelTitle,
      message: T.cancelBody(t.title),
      confirmLabel: T.cancel,
      cancelLabel: T.keepTask,
      isDanger: true,
      onConfirm: () =>
        void actOnTask(zoneId, t.id, { action: 'cancel' }).then(
          () => {
            notify.success(T.canceled(t.id));
            return refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  const remove = (ids: number[], onDone?: () => void) =>
    confirmAction({
      title: T.deleteTitle(ids.length),
      message: T.deleteBody(ids.length),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteTasks(zoneId, ids).then(
          async () => {
            notify.success(T.deleted(ids.length));
            onDone?.();
            await refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return {
    canExecute: (t) => t.status === 'pending',
    canCancel: (t) => can('Task', 'modify') && (t.status === 'pending' || t.status === 'in_progress'),
    canDelete: can('Task', 'modify'),
    execute,
    executeBatch,
    cancel,
    remove,
  };
}
