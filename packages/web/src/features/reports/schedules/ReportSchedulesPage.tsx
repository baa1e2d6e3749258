import { Badge, Button, Card, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { ReportSchedule, ReportScheduleBody } from '@patchwell/core/reports/schedules.schema';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../../app/access';
import { useShell } from '../../../app/shell-context';
import { confirmAction } from '../../../ui/confirm';
import { formatUtc } from '../../../ui/format-date';
import { notify } from '../../../ui/notify';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { usePageTitle } from '../../../ui/usePageTitle';
import { ScheduleForm } from './components/ScheduleForm';
import { ScheduleSends } from './components/ScheduleSends';
import {
  createReportSchedule,
  deleteReportSchedule,
  scheduleKeys,
  sendReportScheduleNow,
  updateReportSchedule,
  useReportSchedules,
} from './schedules.api';
import { SCHEDULES_TEXTS } from './schedules.texts';

const T = SCHEDULES_TEXTS;

const COLUMNS = [
  { key: 'name', header: T.columns.name },
  { key: 'report', header: T.columns.report },
  { key: 'when', header: T.columns.when },
  { key: 'recipients', header: T.columns.recipients },
  { key: 'next', header: T.columns.next },
  { key: 'last', header: T.columns.last },
  { key: 'actions', header: T.columns.actions },
] as const;

/**
 * /reports/schedules: the zone's scheduled reports, their next and last sends; its
 * administrators (Organization.manage) create, change, delete and send them now.
 */
export function ReportSchedulesPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const canManage = !!profile && (profile.is_global_admin || can(profile, zoneId, 'Organization', 'manage'));
  const queryClient = useQueryClient();
  const paging = usePaging();
  const schedules = useReportSchedules(zoneId, paging.apiQuery);
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [historyOf, setHistoryOf] = useState<ReportSchedule | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all(zoneId) });

  const onSave = async (body: ReportScheduleBody) => {
    if (editing === 'new') await createReportSchedule(zoneId, body);
    else if (editing) await updateReportSchedule(zoneId, editing.id, body);
    setEditing(null);
    notify.success(T.saved);
    await refresh();
  };

  const onSendNow = async (s: ReportSchedule) => {
    try {
      const send = await sendReportScheduleNow(zoneId, s.id);
      if (send.status === 'failed') notify.error(`${T.sentNow(send.status)} ${send.error ?? ''}`.trim());
      else notify.success(T.sentNow(send.status));
    } catch (error) {
      await notify.apiError(error);
    }
    await refresh();
  };

  const onDelete = (s: ReportSchedule) =>
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteMessage(s.name),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteReportSchedule(zoneId, s.id).then(
          async () => {
            notify.success(T.deleted);
            if (historyOf?.id === s.id) setHistoryOf(null);
            await refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2} fz="h3">
            {T.title}
          </Title>
          <Text size="sm" c="dimmed">
            {T.intro}
          </Text>
        </Stack>
        {canManage && (
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setEditing('new')}>
            {T.create}
          </Button>
        )}
      </Group>
      <PagedQueryTable
        label={T.tableLabel}
        query={schedules}
        paging={paging}
        columns={COLUMNS}
        rowKey={(s) => s.id}
        empty={T.none}
        renderCells={(s) => (
          <>
            <Table.Td>
              {s.name}
              {!s.enabled && (
                <Badge ml="xs" variant="light" color="gray">
                  {T.disabled}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{T.kinds[s.kind]}</Table.Td>
            <Table.Td>{T.when(s)}</Table.Td>
            <Table.Td>{s.recipients.join(', ')}</Table.Td>
            <Table.Td>{formatUtc(s.next_due_at)}</Table.Td>
            <Table.Td>
              {formatUtc(s.last_sent_at)}
              {s.last_error && (
                <Text size="xs" c="red.8">
                  {s.last_error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap" aria-label={T.actionsOf(s.name)} role="group">
                <Button size="xs" variant="default" onClick={() => setHistoryOf(s)}>
                  {T.history}
                </Button>
                {canManage && (
                  <>
                    <Button size="xs" variant="default" onClick={() => void onSendNow(s)}>
                      {T.sendNow}
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setEditing(s)}>
                      {T.edit}
                    </Button>
                    <Button size="xs" variant="default" color="red" onClick={() => onDelete(s)}>
                      {T.delete}
                    </Button>
                  </>
                )}
              </Group>
            </Table.Td>
          </>
        )}
      />
      {historyOf && (
        <Card withBorder padding="md" radius="md">
          <Title order={3} fz="h5" mb="sm">
            {T.sendsLabel(historyOf.name)}
          </Title>
          <ScheduleSends zoneId={zoneId} scheduleId={historyOf.id} name={historyOf.name} />
        </Card>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? T.createTitle : T.editTitle}
        size="lg"
      >
        {editing !== null && (
          <ScheduleForm
            initial={editing === 'new' ? undefined : editing}
            onSubmit={onSave}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
