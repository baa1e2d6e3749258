import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { BatchFrame } from './components/BatchFrame';
import { TASK_TEXTS as T } from './tasks.texts';

/** /manage/tasks/batches/{batchId}: the batch with its children, details (index) and potential issues. */
export function BatchDetailPage() {
  const { zoneId } = useShell();
  return (
    <BatchFrame
      back={{ to: withZone(PATHS.taskBatches, zoneId), label: T.backToBatches }}
      tabsLabel={T.batchTabs}
      tabs={(batchId) => [
        { label: T.tabDetails, to: withZone(pathTo(PATHS.taskBatch, { batchId }), zoneId), end: true },
        { label: T.tabIssues, to: withZone(pathTo(PATHS.taskBatchIssues, { batchId }), zoneId) },
      ]}
    />
  );
}
