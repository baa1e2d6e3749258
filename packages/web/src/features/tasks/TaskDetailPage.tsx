import type { Task } from '@patchwell/core/remediation/tasks.schema';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { canFor, isFeatureOn, isZoneAdmin } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { CsvDownloadButton } from '../../ui/CsvDownloadButton';
import { CveList } from '../../ui/CveList';
import { FactTable } from '../../ui/FactTable';
import { formatUtc } from '../../ui/format-date';
import { usePageTitle } from '../../ui/usePageTitle';
import { SeverityBadge } from '../devices/components/DeviceBadges';
import { OverallStatusBadge, OverdueBadge, TaskStatusBadge } from './components/RemediationBadges';
import { TaskJobs } from './components/TaskJobs';
import { taskCsvHref, useTask } from './tasks.api';
import { TASK_TEXTS as T } from './tasks.texts';
import { useTaskActions } from './useTaskActions';

/** Where "back" goes: the tasks list for administrators without the remediations view, else the task's batch. */
function useBackLink(task: Task | undefined): { to: string; label: string } {
  const { profile, zoneId } = useShell();
  const avr = isFeatureOn(profile, 'automated_vulnerability_remediation');
  if (!avr && isZoneAdmin(profile, zoneId)) return { to: withZone(PATHS.tasksList, zoneId), label: T.back };
  if (task?.batch_id) {
    const batchId = task.batch_id;
    return {
      to: withZone(pathTo(avr ? PATHS.remediationSolutions : PATHS.taskBatch, { batchId }), zoneId),
      label: T.backToBatch,
    };
  }
  return { to: withZone(avr ? PATHS.remediations : PATHS.taskBatches, zoneId), label: T.backToBatches };
}

function taskFacts(task: Task) {
  return [
    { label: T.kind, value: T.kinds[task.kind] ?? task.kind },
    { label: task.kind === 'patch-now' ? T.patch : T.worklet, value: task.patch_name ?? task.worklet_id },
    { label: T.cves, value: <CveList cves={task.cves} /> },
    { label: T.severity, value: <SeverityBadge severity={task.severity} /> },
    { label: T.source, value: T.sources[task.source] ?? task.source },
    { label: T.overallStatus, value: <OverallStatusBadge status={task.overall_status} /> },
    { label: T.progress, value: T.counts(task.counts) },
    { label: T.createdBy, value: `${task.created_by_user.email ?? '—'}, ${formatUtc(task.created_at)}` },
    {
      label: T.executedBy,
      value: task.executed_by_user ? `${task.executed_by_user.email ?? '—'}, ${formatUtc(task.executed_at)}` : null,
    },
    {
      label: T.due,
      value: task.due_at ? (
        <Group gap={4}>
          {formatUtc(task.due_at)}
          {task.overdue && <OverdueBadge />}
        </Group>
      ) : null,
    },
  ];
}

/**
 * /manage/tasks/tasks/{taskId}: what the task fixes, its overall status, execute or
 * cancel, its CSV, and one job per device with the job's result and the device's
 * remediation status. Task and jobs refresh by themselves while the task runs.
 */
export function TaskDetailPage() {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const navigate = useNavigate();
  const taskId = Number(useParams().taskId);
  const task = useTask(zoneId, Number.isInteger(taskId) ? taskId : 0);
  const actions = useTaskActions(zoneId, can);
  const back = useBackLink(task.data);
  usePageTitle(T.taskTitle(taskId));
  const backLink = (
    <Anchor component={Link} to={back.to} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {back.label}
      </Group>
    </Anchor>
  );
  if (task.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const t = task.data;
  if (!t) {
    return (
      <Stack gap="md">
        {backLink}
        <Alert color="red" role="alert">
          {T.notFound}
        </Alert>
      </Stack>
    );
  }
  const isRunning = t.status === 'in_progress';
  return (
    <Stack gap="md">
      {backLink}
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            {T.taskTitle(t.id)}: {t.title}
          </Title>
          <Group gap="xs">
            <TaskStatusBadge status={t.status} />
            <SeverityBadge severity={t.severity} />
          </Group>
        </Stack>
        <Group gap="xs">
          <CsvDownloadButton href={taskCsvHref(zoneId, t.id)} label={T.downloadCsv} />
          {actions.canCancel(t) && (
            <Button variant="default" color="red" onClick={() => actions.cancel(t)}>
              {T.cancel}
            </Button>
          )}
          {actions.canDelete && (
            <Button variant="default" color="red" onClick={() => actions.remove([t.id], () => void navigate(back.to))}>
              {T.delete}
            </Button>
          )}
          {actions.canExecute(t) && <Button onClick={() => actions.execute(t)}>{T.execute}</Button>}
        </Group>
      </Group>
      {t.status === 'pending' && (
        <Text size="sm" c="dimmed">
          {T.oneTime}
        </Text>
      )}
      {isRunning && (
        <Text size="sm" c="dimmed" role="status">
          {T.polling}
        </Text>
      )}
      <FactTable facts={taskFacts(t)} label={T.details} />
      <TaskJobs zoneId={zoneId} taskId={t.id} isRunning={isRunning} />
    </Stack>
  );
}
