import { Code, Table, Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
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

const COLUMNS = [
  { key: 'type', header: T.commandType },
  { key: 'status', header: T.commandStatus },
  { key: 'exit', header: T.exitCode },
  { key: 'created', header: T.created },
  { key: 'finished', header: T.finished },
  { key: 'output', header: T.output },
] as const;

/**
 * The commands sent to the device with their results; refreshes every 5 s while one is open
 * (the page shows the live status above the tabs).
 */
export function DeviceCommands({ zoneId, deviceId }: { zoneId: number; deviceId: number }) {
  const paging = usePaging();
  const commands = useDeviceCommands(zoneId, deviceId, paging.apiQuery);
  return (
    <PagedQueryTable
      label={T.commands}
      query={commands}
      paging={paging}
      columns={COLUMNS}
      rowKey={(c) => c.id}
      empty={T.noCommands}
      renderCells={(c) => (
        <>
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
        </>
      )}
    />
  );
}
