import { ActionIcon, Alert, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { CONSOLE_TEXTS } from '../../../texts';
import { confirmAction } from '../../../ui/confirm';
import { formatUtc } from '../../../ui/format-date';
import { notify } from '../../../ui/notify';
import { hostImportKeys, removeHostImport, type useAwaitingImports } from './host-imports.api';
import { IMPORT_TEXTS as T } from './import.texts';

export type AwaitingImportsProps = {
  zoneId: number;
  awaiting: ReturnType<typeof useAwaitingImports>;
  onShowInstall: () => void;
};

/** Imported hosts whose agent has not enrolled yet, with the install hint and removal. */
export function AwaitingImports({ zoneId, awaiting, onShowInstall }: AwaitingImportsProps) {
  const queryClient = useQueryClient();
  const onRemove = (id: number, hostname: string) =>
    confirmAction({
      title: T.removeTitle,
      message: T.removeMessage(hostname),
      confirmLabel: T.removeConfirm,
      isDanger: true,
      onConfirm: () => {
        void removeHostImport(zoneId, id).then(
          async () => {
            notify.success(T.removed(hostname));
            await queryClient.invalidateQueries({ queryKey: hostImportKeys.all });
          },
          (error: unknown) => notify.apiError(error),
        );
      },
    });

  const list = awaiting.data;
  return (
    <Stack gap="sm">
      <Alert color="blue" variant="light">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{T.awaitingIntro}</Text>
          <Button size="xs" variant="default" onClick={onShowInstall}>
            {T.showInstall}
          </Button>
        </Stack>
      </Alert>
      {awaiting.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {list && list.size === 0 && (
        <Text size="sm" c="dimmed">
          {T.awaitingEmpty}
        </Text>
      )}
      {list && list.size > 0 && (
        <Table.ScrollContainer minWidth={560} maxHeight={360}>
          <Table striped stickyHeader verticalSpacing={4} fz="sm">
            <Table.Caption>{T.awaitingCaption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{T.table.hostname}</Table.Th>
                <Table.Th>{T.table.os}</Table.Th>
                <Table.Th>{T.table.group}</Table.Th>
                <Table.Th>{T.table.tags}</Table.Th>
                <Table.Th>{T.importedAt}</Table.Th>
                <Table.Th aria-label={T.removeConfirm} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{row.hostname}</Table.Td>
                  <Table.Td>{row.os_family ? (CONSOLE_TEXTS.os[row.os_family] ?? row.os_family) : '—'}</Table.Td>
                  <Table.Td>{row.group_name ?? T.defaultGroup}</Table.Td>
                  <Table.Td>{row.tags.join(', ')}</Table.Td>
                  <Table.Td>{formatUtc(row.imported_at)}</Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={T.remove(row.hostname)}
                        onClick={() => onRemove(row.id, row.hostname)}
                      >
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list && list.size > list.data.length && (
        <Text size="xs" c="dimmed">
          {T.moreAwaiting(list.data.length, list.size)}
        </Text>
      )}
    </Stack>
  );
}
