import { Stack, Table, Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { FactTable } from '../../../ui/FactTable';
import type { DeviceSystem } from '../devices.types';

const T = CONSOLE_TEXTS.device;

/** The device's network interfaces with MAC and IP addresses. */
export function DeviceNetwork({ system }: { system: DeviceSystem | null }) {
  if (!system) return <Text c="dimmed">{T.noInventory}</Text>;
  const nics = system.nics ?? [];
  return (
    <Stack gap="md">
      <FactTable
        label={T.network}
        facts={[
          { label: T.hostname, value: system.hostname },
          { label: T.fqdn, value: system.fqdn },
        ]}
      />
      {nics.length === 0 ? (
        <Text c="dimmed">{T.noNics}</Text>
      ) : (
        <Table withTableBorder aria-label={T.network}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{T.nic}</Table.Th>
              <Table.Th scope="col">{T.mac}</Table.Th>
              <Table.Th scope="col">{T.ips}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {nics.map((n) => (
              <Table.Tr key={n.name}>
                <Table.Td>{n.name}</Table.Td>
                <Table.Td ff="monospace">{n.mac ?? '—'}</Table.Td>
                <Table.Td>{n.ips.join(', ') || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
