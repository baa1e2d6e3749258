import { JOB_STATUSES, type JobStatus, type TaskJob } from '@patchwell/core/remediation/tasks.schema';
import { Anchor, Code, Modal, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { useTaskJobs } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';
import { JobResultBadge, RemediationStatusBadge } from './RemediationBadges';

const COLUMNS = [
  { key: 'device', header: T.device },
  { key: 'ip', header: T.privateIp },
  { key: 'updates', header: T.jobUpdates },
  { key: 'result', header: T.result },
  { key: 'remediation', header: T.remediationStatus },
  { key: 'exit', header: T.exitCode },
  { key: 'started', header: T.started },
  { key: 'finished', header: T.finished },
  { key: 'output', header: T.output },
] as const;

/** A task's jobs, one per device: result, remediation status and output; refreshes while the task runs. */
export function TaskJobs({ zoneId, taskId, isRunning }: { zoneId: number; taskId: number; isRunning: boolean }) {
  const paging = usePaging();
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [shown, setShown] = useState<TaskJob | null>(null);
  const jobs = useTaskJobs(zoneId, taskId, { ...paging.apiQuery, ...(status ? { status } : {}) }, isRunning);
  return (
    <Stack gap="sm" component="section" aria-label={T.jobs}>
      <Title order={2} fz="h4">
        {T.jobs}
      </Title>
      <NativeSelect
        label={T.jobStatus}
        size="sm"
        w={220}
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value as JobStatus | '');
          paging.onPage(1);
        }}
        data={[
          { value: '', label: CONSOLE_TEXTS.table.any },
          ...JOB_STATUSES.map((s) => ({ value: s, label: T.jobResult[s] ?? s })),
        ]}
      />
      <PagedQueryTable
        label={T.jobsLabel}
        query={jobs}
        paging={paging}
        columns={COLUMNS}
        rowKey={(j) => j.id}
        empty={T.noJobs}
        minWidth={1080}
        renderCells={(j) => (
          <>
            <Table.Td>
              <Anchor
                component={Link}
                to={withZone(pathTo(PATHS.deviceDetail, { deviceId: j.device_id }), zoneId)}
                size="sm"
              >
                {j.hostname}
              </Anchor>
            </Table.Td>
            <Table.Td>{j.ip_addrs_private.join(', ') || '—'}</Table.Td>
            {/* A fix's versions differ per device: what this device's job installs. */}
            <Table.Td>{j.patch_names?.join(', ') || '—'}</Table.Td>
            <Table.Td>
              <JobResultBadge status={j.status} />
            </Table.Td>
            <Table.Td>
              <RemediationStatusBadge status={j.remediation_status} />
            </Table.Td>
            <Table.Td>{j.exit_code ?? '—'}</Table.Td>
            <Table.Td>{formatUtc(j.started_at)}</Table.Td>
            <Table.Td>{formatUtc(j.finished_at)}</Table.Td>
            <Table.Td>
              {j.output ? (
                <Anchor component="button" type="button" size="sm" onClick={() => setShown(j)}>
                  {T.showOutput(j.hostname)}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
          </>
        )}
      />
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={shown ? T.showOutput(shown.hostname) : ''}
        closeButtonProps={{ 'aria-label': T.closeDialog }}
        size="lg"
      >
        {shown?.output ? (
          <Code block style={{ whiteSpace: 'pre-wrap', maxHeight: '20rem', overflow: 'auto' }}>
            {shown.output}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            {T.noOutput}
          </Text>
        )}
      </Modal>
    </Stack>
  );
}
