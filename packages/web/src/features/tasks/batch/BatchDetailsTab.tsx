import { Stack, Text, Title } from '@mantine/core';
import { useBatchOutlet } from '../components/BatchFrame';
import { BatchSummary } from '../components/BatchSummary';
import { BatchTasks } from '../components/BatchTasks';
import { TASK_TEXTS as T } from '../tasks.texts';

/** The batch's details: what matching found and, once accepted, the tasks it created. */
export function BatchDetailsTab() {
  const { zoneId, batch, can } = useBatchOutlet();
  return (
    <Stack gap="lg">
      <BatchSummary batch={batch} />
      {batch.status === 'ready' && (
        <Text size="sm" c="dimmed">
          {T.oneTime} {T.rejectBody}
        </Text>
      )}
      {batch.status === 'approved' && (
        <Stack gap="sm" component="section" aria-label={T.batchTasks}>
          <Title order={2} fz="h4">
            {T.batchTasks}
          </Title>
          <BatchTasks zoneId={zoneId} batchId={batch.id} can={can} />
        </Stack>
      )}
    </Stack>
  );
}
