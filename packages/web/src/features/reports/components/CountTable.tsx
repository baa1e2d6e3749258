import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';

export type CountRow = { key: string; label: string; devices: number; patches: number; to: string };

/** Groups of a summary (a severity, an age bucket): devices and patches, each a link to the devices behind it. */
export function CountTable({
  label,
  groupHeader,
  devicesHeader,
  patchesHeader,
  rows,
}: {
  label: string;
  groupHeader: string;
  devicesHeader: string;
  patchesHeader: string;
  rows: CountRow[];
}) {
  return (
    <Table withTableBorder striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{groupHeader}</Table.Th>
          <Table.Th scope="col">{devicesHeader}</Table.Th>
          <Table.Th scope="col">{patchesHeader}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Th scope="row">{r.label}</Table.Th>
            <Table.Td>
              <Anchor
                component={Link}
                to={r.to}
                size="sm"
                aria-label={`${r.label}: ${r.devices} ${devicesHeader.toLowerCase()}`}
              >
                {r.devices}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Anchor
                component={Link}
                to={r.to}
                size="sm"
                aria-label={`${r.label}: ${r.patches} ${patchesHeader.toLowerCase()}`}
              >
                {r.patches}
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
