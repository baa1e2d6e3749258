import type { MaintenanceWindow } from '@patchwell/core/maintenance/maintenance-windows.schema';
import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { canFor } from '../../app/access';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { WindowDialog } from './components/WindowDialog';
import { deleteMaintenanceWindow, maintenanceKeys, useMaintenanceWindows } from './maintenance.api';
import { MAINTENANCE_TEXTS as T } from './maintenance.texts';
import { scheduleText } from './schedule-text';
import { ActionMenu } from '../../ui/menu/ActionMenu';

type DialogState = { window?: MaintenanceWindow } | null;

/** /manage/maintenance-windows (the maintenance-windows flag; ServerGroup rights): the zone's windows. */
export function MaintenanceWindowsPage() {
  usePageTitle(T.title);
  const { zoneId = 0, profile } = useShell();
  const can = canFor(profile, zoneId);
  const queryClient = useQueryClient();
  const windows = useMaintenanceWindows(zoneId);
  const groups = useGroups(zoneId);
  const [dialog, setDialog] = useState<DialogState>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: maintenanceKeys.all });

  const onDelete = (w: MaintenanceWindow) =>
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteBody(w.name),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteMaintenanceWindow(zoneId, w.id).then(
          async () => {
            notify.success(T.deleted);
            await refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  const canModify = can('ServerGroup', 'modify');
  const canDelete = can('ServerGroup', 'delete');

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        {can('ServerGroup', 'create') && (
          <Button
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={() => setDialog({})}
            disabled={!groups.data}
          >
            {T.create}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {T.description}
      </Text>
      <QueryTable
        label={T.title}
        query={{ data: windows.data?.data, isPending: windows.isPending, isError: windows.isError }}
        columns={[
          { key: 'name', header: T.name },
          { key: 'group', header: T.group },
          { key: 'schedule', header: T.schedule },
          { key: 'timezone', header: T.timezone },
          { key: 'next', header: T.next },
          { key: 'actions', header: CONSOLE_TEXTS.common.actions },
        ]}
        rowKey={(w) => w.id}
        empty={T.empty}
        renderCells={(w) => (
          <>
            <Table.Td>{w.name}</Table.Td>
            <Table.Td>{w.server_group_name}</Table.Td>
            <Table.Td>{scheduleText(w.schedule)}</Table.Td>
            <Table.Td>{w.timezone}</Table.Td>
            <Table.Td>
              {w.next ? (
                <Group gap={6} wrap="nowrap">
                  <span>{formatUtc(w.next.starts_at)}</span>
                  {w.is_open && (
                    <Badge color="green" variant="light">
                      {T.openNow}
                    </Badge>
                  )}
                </Group>
              ) : (
                T.none
              )}
            </Table.Td>
            <Table.Td>
              {(canModify || canDelete) && (
                <ActionMenu
                  target={
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`${CONSOLE_TEXTS.common.actions}: ${w.name}`}
                    >
                      <IconDots size={16} aria-hidden="true" />
                    </Button>
                  }
                  entries={() => [
                    canModify && { label: T.edit, onClick: () => setDialog({ window: w }) },
                    canDelete && { label: T.delete, color: 'red', onClick: () => onDelete(w) },
                  ]}
                />
              )}
            </Table.Td>
          </>
        )}
      />
      <WindowDialog
        opened={dialog !== null}
        zoneId={zoneId}
        groups={groups.data ?? []}
        window={dialog?.window}
        onClose={() => setDialog(null)}
        onSaved={() => void refresh()}
      />
    </Stack>
  );
}
