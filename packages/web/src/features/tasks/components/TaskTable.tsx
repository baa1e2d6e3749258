import type { Task } from '@patchwell/core/remediation/tasks.schema';
import { ActionIcon, Anchor, Checkbox, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { CveList } from '../../../ui/CveList';
import { guardCsvDownload } from '../../../ui/CsvDownloadButton';
import { formatUtc } from '../../../ui/format-date';
import { SortableTh } from '../../../ui/table/SortableTh';
import type { TableSort } from '../../../ui/table/table-query';
import { SeverityBadge } from '../../devices/components/DeviceBadges';
import { taskCsvHref } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';
import type { TaskActions } from '../useTaskActions';
import { OverallStatusBadge, OverdueBadge, TaskStatusBadge } from './RemediationBadges';
import { ActionMenu } from '../../../ui/menu/ActionMenu';

export type TaskTableProps = {
  zoneId: number;
  tasks: readonly Task[];
  actions: TaskActions;
  label?: string;
  /** Sortable headers when given (the tasks list); plain ones otherwise. */
  sort?: { value: TableSort; onSort: (field: string) => void };
  /** Row selection for bulk delete when given. */
  selection?: { ids: ReadonlySet<number>; onChange: (ids: Set<number>) => void };
};

function RowActions({ zoneId, task, actions }: { zoneId: number; task: Task; actions: TaskActions }) {
  return (
    <ActionMenu
      target={
        <ActionIcon variant="subtle" aria-label={T.rowActions(task.id)}>
          <IconDots size={16} aria-hidden="true" />
        </ActionIcon>
      }
      entries={() => [
        { label: T.view, to: withZone(pathTo(PATHS.taskDetail, { taskId: task.id }), zoneId) },
        actions.canExecute(task) && { label: T.execute, onClick: () => actions.execute(task) },
        actions.canCancel(task) && { label: T.cancel, onClick: () => actions.cancel(task) },
        { label: T.downloadCsv, href: taskCsvHref(zoneId, task.id), download: true, onClick: guardCsvDownload },
        actions.canDelete && { label: T.delete, color: 'red', onClick: () => actions.remove([task.id]) },
      ]}
    />
  );
}

/** Remediation tasks: what each fixes, how bad, where it came from, and how far it got. */
export function TaskTable({ zoneId, tasks, actions, label = T.tableLabel, sort, selection }: TaskTableProps) {
  const th = (field: string, text: string): ReactNode =>
    sort ? (
      <SortableTh field={field} sort={sort.value} onSort={sort.onSort}>
        {text}
      </SortableTh>
    ) : (
      <Table.Th scope="col">{text}</Table.Th>
    );
  const allSelected = selection !== undefined && tasks.length > 0 && tasks.every((t) => selection.ids.has(t.id));
  const someSelected = selection !== undefined && tasks.some((t) => selection.ids.has(t.id));
  const toggle = (id: number) => {
    if (!selection) return;
    const next = new Set(selection.ids);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    selection.onChange(next);
  };
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table highlightOnHover withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th scope="col" w={40}>
                <Checkbox
                  aria-label={CONSOLE_TEXTS.table.selectAll}
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  onChange={() => selection.onChange(allSelected ? new Set() : new Set(tasks.map((t) => t.id)))}
                />
              </Table.Th>
            )}
            {th('id', T.id)}
            {th('title', T.task)}
            {th('severity', T.severity)}
            {th('source', T.source)}
            {th('status', T.status)}
            <Table.Th scope="col">{T.progress}</Table.Th>
            {th('created_at', T.created)}
            <Table.Th scope="col">{T.due}</Table.Th>
            <Table.Th scope="col" w={56}>
              <VisuallyHidden>{T.actions}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tasks.map((t) => (
            <Table.Tr key={t.id}>
              {selection && (
                <Table.Td>
                  <Checkbox
                    aria-label={T.selectTask(t.id)}
                    checked={selection.ids.has(t.id)}
                    onChange={() => toggle(t.id)}
                  />
                </Table.Td>
              )}
              <Table.Td>{t.id}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Anchor component={Link} to={withZone(pathTo(PATHS.taskDetail, { taskId: t.id }), zoneId)} size="sm">
                    {t.title}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {T.kinds[t.kind] ?? t.kind} · <CveList cves={t.cves} />
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td>
                <SeverityBadge severity={t.severity} />
              </Table.Td>
              <Table.Td>{T.sources[t.source] ?? t.source}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <TaskStatusBadge status={t.status} />
                  {t.status !== 'pending' && <OverallStatusBadge status={t.overall_status} />}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{T.counts(t.counts)}</Text>
              </Table.Td>
              <Table.Td>{formatUtc(t.created_at)}</Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <Text size="sm">{formatUtc(t.due_at)}</Text>
                  {t.overdue && <OverdueBadge />}
                </Stack>
              </Table.Td>
              <Table.Td>
                <RowActions zoneId={zoneId} task={t} actions={actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
