import { TEXTS } from '@patchwell/core/texts';
import { Alert, Button, Group, Loader, Stack } from '@mantine/core';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import { usePaging } from '../../../ui/PagedQueryTable';
import { TablePager } from '../../../ui/table/TablePager';
import { useTasks } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';
import { useTaskActions } from '../useTaskActions';
import { TaskTable } from './TaskTable';

/** The tasks an accepted batch created, with execute (one, or all pending at once), cancel, CSV and delete; refreshes while one runs. */
export function BatchTasks({ zoneId, batchId, can }: { zoneId: number; batchId: number; can: Can }) {
  const paging = usePaging();
  const tasks = useTasks(zoneId, { batch_id: batchId, sort: 'status:asc', ...paging.apiQuery });
  // Only the count: whether "Execute all" has anything to run.
  const pending = useTasks(zoneId, { batch_id: batchId, 'status:equals': 'pending', limit: 1 });
  const actions = useTaskActions(zoneId, can);
  const pendingCount = pending.data?.size ?? 0;
  if (tasks.isError)
    return (
      <Alert color="red" role="alert">
        {TEXTS.generic.unableToLoad}
      </Alert>
    );
  if (!tasks.data) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  return (
    <Stack gap="sm">
      {pendingCount > 0 && (
        <Group justify="flex-end">
          <Button size="sm" onClick={() => actions.executeBatch(batchId, pendingCount)}>
            {T.executeAll(pendingCount)}
          </Button>
        </Group>
      )}
      <TaskTable zoneId={zoneId} tasks={tasks.data.data} actions={actions} label={T.batchTasks} />
      <TablePager
        empty={tasks.data.size === 0 ? T.noMatch : null}
        page={paging.page}
        limit={paging.limit}
        total={tasks.data.size}
        onPage={paging.onPage}
        onLimit={paging.onLimit}
      />
    </Stack>
  );
}
