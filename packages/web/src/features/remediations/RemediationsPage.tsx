import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { PagedQueryTable, usePaging } from '../../ui/PagedQueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { BATCH_COLUMNS, BatchCells } from '../tasks/components/BatchCells';
import { UploadScanDialog } from '../tasks/components/UploadScanDialog';
import { useBatches } from '../tasks/tasks.api';
import { CveSummaryCards } from './components/CveSummaryCards';
import { CveTable } from './components/CveTable';
import { DeadlinesEditor } from './components/DeadlinesEditor';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

/**
 * /manage/remediations (automated vulnerability remediation on, the default): the zone's
 * overdue summary, the imported batches, every CVE reported in the zone, and the
 * remediation deadlines by severity.
 */
export function RemediationsPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const navigate = useNavigate();
  const paging = usePaging();
  const batches = useBatches(zoneId, { 'type:equals': 'patch', ...paging.apiQuery });
  const [isUploadOpen, setUploadOpen] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        {can('Task', 'create') && <Button onClick={() => setUploadOpen(true)}>{T.upload}</Button>}
      </Group>
      <Text c="dimmed" size="sm">
        {T.intro}
      </Text>
      <CveSummaryCards zoneId={zoneId} />
      <Stack gap="sm" component="section" aria-labelledby="batches-title">
        <Title order={2} fz="h4" id="batches-title">
          {T.batchesTitle}
        </Title>
        <PagedQueryTable
          label={T.batchesLabel}
          query={batches}
          paging={paging}
          columns={BATCH_COLUMNS}
          rowKey={(b) => b.id}
          empty={T.batchesEmpty}
          renderCells={(b) => (
            <BatchCells
              zoneId={zoneId}
              batch={b}
              to={withZone(pathTo(PATHS.remediationBatch, { batchId: b.id }), zoneId)}
            />
          )}
        />
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="cves-title">
        <Title order={2} fz="h4" id="cves-title">
          {T.cvesTitle}
        </Title>
        <CveTable zoneId={zoneId} />
      </Stack>
      <DeadlinesEditor zoneId={zoneId} can={can} />
      <UploadScanDialog
        opened={isUploadOpen}
        zoneId={zoneId}
        onClose={() => setUploadOpen(false)}
        onFinish={(batch) => {
          setUploadOpen(false);
          void navigate(withZone(pathTo(PATHS.remediationBatch, { batchId: batch.id }), zoneId));
        }}
      />
    </Stack>
  );
}
