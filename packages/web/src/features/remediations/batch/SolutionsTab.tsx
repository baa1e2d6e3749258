import type { BatchSolution } from '@patchwell/core/remediation/batches.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { CveList } from '../../../ui/CveList';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { SeverityBadge } from '../../devices/components/DeviceBadges';
import { useBatchOutlet } from '../../tasks/components/BatchFrame';
import { BatchReviewActions } from '../../tasks/components/BatchReviewActions';
import { BatchTasks } from '../../tasks/components/BatchTasks';
import { TASK_TEXTS } from '../../tasks/tasks.texts';
import { useBatchSolutions } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

const COLUMNS = [
  { key: 'solution', header: T.solution },
  { key: 'mode', header: T.mode },
  { key: 'severity', header: T.severity },
  { key: 'fixes', header: T.fixes },
  { key: 'devices', header: T.devices },
] as const;

const building = { data: undefined, isPending: true, isError: false } as const;

/** Patch now installs a patch; patch with worklet runs a catalogue worklet (spec B section 4 "Patch modes"). */
function Mode({ solution }: { solution: BatchSolution }) {
  const isWorklet = solution.kind === 'patch-with-worklet';
  return (
    <Stack gap={2}>
      <Badge color={isWorklet ? 'grape' : 'blue'} variant="light" styles={{ label: { overflow: 'visible' } }}>
        {TASK_TEXTS.kinds[solution.kind] ?? solution.kind}
      </Badge>
      <Text size="xs" c="dimmed">
        {isWorklet ? T.workletHelp : T.patchNowHelp}
      </Text>
    </Stack>
  );
}

/**
 * What accepting the batch will do: one task per solution, each a patch to install now or
 * a worklet to run, on the devices it covers. Accept and reject are here; once accepted,
 * the batch's tasks follow, with execute.
 */
export function SolutionsTab() {
  const { zoneId, batch, can } = useBatchOutlet();
  const paging = usePaging();
  const isBuilding = batch.status === 'building';
  const solutions = useBatchSolutions(zoneId, batch.id, paging.apiQuery, !isBuilding);
  return (
    <Stack gap="md">
      <PagedQueryTable
        label={T.solutionsLabel}
        query={isBuilding ? building : solutions}
        paging={paging}
        columns={COLUMNS}
        rowKey={(s) => s.id}
        empty={T.solutionsEmpty}
        minWidth={860}
        renderCells={(s) => (
          <>
            <Table.Td>
              <Text size="sm" fw={500}>
                {s.title}
              </Text>
              <Text size="xs" c="dimmed">
                {s.kind === 'patch-now' ? s.patch_name : s.worklet_id}
              </Text>
              {s.kind === 'patch-with-worklet' && !s.worklet_id && (
                <Text size="xs" c="red.9" role="alert">
                  {TEXTS.remediationTasks.workletInvalid}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Mode solution={s} />
            </Table.Td>
            <Table.Td>
              <SeverityBadge severity={s.severity} />
            </Table.Td>
            <Table.Td>
              <CveList cves={s.cves} />
            </Table.Td>
            <Table.Td>{s.device_count}</Table.Td>
          </>
        )}
      />
      {batch.status === 'ready' && (
        <Group justify="space-between" align="center">
          <Text size="sm" c="dimmed" maw={640}>
            {T.acceptHint}
          </Text>
          <BatchReviewActions zoneId={zoneId} batch={batch} can={can} />
        </Group>
      )}
      {batch.status === 'approved' && (
        <Stack gap="sm" component="section" aria-labelledby="batch-tasks-title">
          <Title order={2} fz="h4" id="batch-tasks-title">
            {T.tasksTitle}
          </Title>
          <BatchTasks zoneId={zoneId} batchId={batch.id} can={can} />
        </Stack>
      )}
    </Stack>
  );
}
