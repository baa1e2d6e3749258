import { TEXTS } from '@patchwell/core/texts';
import { Alert, Loader, Stack } from '@mantine/core';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import { usePaging } from '../../../ui/PagedQueryTable';
import { TablePager } from '../../../ui/table/TablePager';
import { useTasks } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';
import { useTaskActions } from '../useTaskActions';
import { TaskTable } from './TaskTable';

/** The tasks an accepted batch created, with execute, cancel, CSV and delete; refreshes while one runs. */
export function BatchTasks({ zoneId, batchId, can }: { zoneId: number; batchId: number; can: Can }) {
  const paging = usePaging();
  const tasks = useTasks(zoneId, { batch_id: batchId, sort: 'status:asc', ...paging.apiQuery });
  const actions = useTaskActions(zoneId, can);
  if (tasks.isError)
    return (
      <Alert color="red" role="alert">
        {TEXTS.generic.unableToLoad}
      </Alert>
    );
  if (!tasks.data) return <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />;
  return (
    <Stack gap="sm">
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
