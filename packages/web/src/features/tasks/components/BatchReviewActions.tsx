import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Can } from '../../../app/access';
import { confirmAction } from '../../../ui/confirm';
import { notify } from '../../../ui/notify';
import { acceptBatch, batchKeys, rejectBatch, taskKeys } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';

export type BatchReviewActionsProps = {
  zoneId: number;
  batch: Batch;
  can: Can;
  onAccepted?: (taskIds: number[]) => void;
};

/**
 * Accept (creates one task per solution) or reject (final: running the fixes later needs a
 * re-import), each confirmed first (spec B section 4). Only a batch awaiting approval, and
 * only with Task.modify.
 */
export function BatchReviewActions({ zoneId, batch, can, onAccepted }: BatchReviewActionsProps) {
  const queryClient = useQueryClient();
  const [isBusy, setBusy] = useState(false);
  if (batch.status !== 'ready' || !can('Task', 'modify')) return null;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: batchKeys.all }),
      queryClient.invalidateQueries({ queryKey: taskKeys.all }),
    ]);

  const run = (work: () => Promise<void>) => {
    setBusy(true);
    void work()
      .catch((error: unknown) => notify.apiError(error))
      .finally(() => setBusy(false));
  };

  const onAccept = () => {
    confirmAction({
      title: T.acceptTitle,
      message: T.acceptBody(batch.impacted_device_count),
      confirmLabel: T.accept,
      onConfirm: () =>
        run(async () => {
          const result = await acceptBatch(zoneId, batch.id);
          notify.success(T.accepted(result.task_ids.length));
          await refresh();
          onAccepted?.(result.task_ids);
        }),
    });
  };

  const onReject = () =>
    confirmAction({
      title: T.rejectTitle,
      message: T.rejectBody,
      confirmLabel: T.reject,
      isDanger: true,
      onConfirm: () =>
        run(async () => {
          await rejectBatch(zoneId, batch.id);
          notify.success(T.rejected);
          await refresh();
        }),
    });

  return (
    <Group gap="xs">
      <Button variant="default" color="red" onClick={onReject} disabled={isBusy}>
        {T.reject}
      </Button>
      <Button onClick={onAccept} loading={isBusy}>
        {T.accept}
      </Button>
    </Group>
  );
}
