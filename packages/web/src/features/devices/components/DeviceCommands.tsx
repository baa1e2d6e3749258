import { PAGE_SIZE_DEFAULT } from '@patchwell/core/constants';
import { Code, Loader, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { TablePager } from '../../../ui/table/TablePager';
import { useDeviceCommands } from '../devices.api';
import type { DeviceCommand } from '../devices.types';
import { CommandStatusBadge } from './DeviceBadges';

const T = CONSOLE_TEXTS.device;

function CommandOutput({ command }: { command: DeviceCommand }) {
  if (!command.stdout_tail && !command.stderr_tail) return <>—</>;
  return (
    <details>
      <summary style={{ cursor: 'pointer' }}>{T.showOutput}</summary>
      {command.stdout_tail && (
        <>
          <Text size="xs" fw={700} mt="xs">
            {T.stdout}
          </Text>
          <Code block style={{ maxHeight: 240, overflow: 'auto' }}>
            {command.stdout_tail}
          </Code>
        </>
      )}
      {command.stderr_tail && (
        <>
          <Text size="xs" fw={700} mt="xs">
            {T.stderr}
          </Text>
          <Code block color="red.0" style={{ maxHeight: 240, overflow: 'auto' }}>
            {command.stderr_tail}
          </Code>
        </>
      )}
    </details>
  );
}

/**
 * The commands sent to the device with their results; refreshes every 5 s while one is open
 * (the page shows the live status above the tabs).
 */
export function DeviceCommands({ zoneId, deviceId }: { zoneId: number; deviceId: number }) {
  const [paging, setPaging] = useState({ page: 1, limit: PAGE_SIZE_DEFAULT });
  const commands = useDeviceCommands(zoneId, deviceId, { page: paging.page - 1, limit: paging.limit });
  const rows = commands.data?.data ?? [];
  return (
    <Stack gap="md">
      {commands.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
      {commands.data && rows.length === 0 && <Text c="dimmed">{T.noCommands}</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table withTableBorder aria-label={T.commands}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{T.commandType}</Table.Th>
                <Table.Th scope="col">{T.commandStatus}</Table.Th>
                <Table.Th scope="col">{T.exitCode}</Table.Th>
                <Table.Th scope="col">{T.created}</Table.Th>
                <Table.Th scope="col">{T.finished}</Table.Th>
                <Table.Th scope="col">{T.output}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>{CONSOLE_TEXTS.commandType[c.type] ?? c.type}</Table.Td>
                  <Table.Td>
                    <CommandStatusBadge status={c.status} />
                  </Table.Td>
                  <Table.Td>{c.exit_code ?? '—'}</Table.Td>
                  <Table.Td>{formatUtc(c.created_at)}</Table.Td>
                  <Table.Td>{formatUtc(c.finished_at)}</Table.Td>
                  <Table.Td>
                    <CommandOutput command={c} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {commands.data && commands.data.size > paging.limit && (
        <TablePager
          page={paging.page}
          limit={paging.limit}
          total={commands.data.size}
          onPage={(page) => setPaging({ ...paging, page })}
          onLimit={(limit) => setPaging({ page: 1, limit })}
        />
      )}
    </Stack>
  );
}
