import { Stack, Table, Text, Title } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { FactTable } from '../../../ui/FactTable';
import { formatBytes } from '../../../ui/format-units';
import type { DeviceSystem } from '../devices.types';

const T = CONSOLE_TEXTS.device;

/** CPU, memory, disks, model, serial number and vendor from the inventory. */
export function DeviceHardware({ system }: { system: DeviceSystem | null }) {
  if (!system) return <Text c="dimmed">{T.noInventory}</Text>;
  const disks = system.disks ?? [];
  return (
    <Stack gap="md">
      <FactTable
        label={T.hardware}
        facts={[
          { label: T.cpu, value: system.cpu },
          { label: T.cores, value: system.cpu_cores != null ? String(system.cpu_cores) : null },
          { label: T.ram, value: system.ram_bytes != null ? formatBytes(system.ram_bytes) : null },
          { label: T.model, value: system.model },
          { label: T.serial, value: system.serial },
          { label: T.vendor, value: system.vendor },
          { label: T.arch, value: system.arch },
          { label: T.kernel, value: system.kernel },
        ]}
      />
      <Title order={3} fz="h5">
        {T.disks}
      </Title>
      <Table withTableBorder aria-label={T.disks}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{T.diskName}</Table.Th>
            <Table.Th scope="col">{T.diskSize}</Table.Th>
            <Table.Th scope="col">{T.diskType}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {disks.map((d) => (
            <Table.Tr key={d.name}>
              <Table.Td>{d.name}</Table.Td>
              <Table.Td>{formatBytes(d.size_bytes)}</Table.Td>
              <Table.Td>{d.type ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
