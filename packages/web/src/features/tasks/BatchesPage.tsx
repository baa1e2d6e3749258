import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { canFor, isZoneAdmin, isFeatureOn } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { PagedQueryTable, usePaging } from '../../ui/PagedQueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { BATCH_COLUMNS, BatchCells } from './components/BatchCells';
import { UploadScanDialog } from './components/UploadScanDialog';
import { useBatches } from './tasks.api';
import { TASK_TEXTS as T } from './tasks.texts';

/**
 * /manage/tasks/batches: uploaded scans awaiting review (spec B section 7: approved
 * batches are left out, they live on as tasks), with the upload button.
 */
export function BatchesPage() {
  usePageTitle(T.batchesTitle);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const navigate = useNavigate();
  const paging = usePaging();
  const batches = useBatches(zoneId, { 'status:not_in': 'approved', 'type:equals': 'patch', ...paging.apiQuery });
  const [isUploadOpen, setUploadOpen] = useState(false);
  // The tasks list is for administrators while the remediations view is off (spec B section 2).
  const canSeeTasks = !isFeatureOn(profile, 'automated_vulnerability_remediation') && isZoneAdmin(profile, zoneId);
  return (
    <Stack gap="md">
      {canSeeTasks && (
        <Anchor component={Link} to={withZone(PATHS.tasksList, zoneId)} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} aria-hidden="true" />
            {T.back}
          </Group>
        </Anchor>
      )}
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.batchesTitle}
        </Title>
        {can('Task', 'create') && <Button onClick={() => setUploadOpen(true)}>{T.upload}</Button>}
      </Group>
      <Text c="dimmed" size="sm">
        {T.batchesIntro}
      </Text>
      <PagedQueryTable
        label={T.batchesTableLabel}
        query={batches}
        paging={paging}
        columns={BATCH_COLUMNS}
        rowKey={(b) => b.id}
        empty={T.batchesEmpty}
        renderCells={(b) => (
          <BatchCells zoneId={zoneId} batch={b} to={withZone(pathTo(PATHS.taskBatch, { batchId: b.id }), zoneId)} />
        )}
      />
      <UploadScanDialog
        opened={isUploadOpen}
        zoneId={zoneId}
        onClose={() => setUploadOpen(false)}
        onFinish={(batch) => {
          setUploadOpen(false);
          void navigate(withZone(pathTo(PATHS.taskBatch, { batchId: batch.id }), zoneId));
        }}
      />
    </Stack>
  );
}
